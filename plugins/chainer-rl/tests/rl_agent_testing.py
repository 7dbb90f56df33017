"""The loops every agent family's tests run on the ABC task: ChainerRL's
single-env and vector-env training loops and greedy evaluation episodes."""


def train_single(agent, env, steps, env_seed=0, stop_at_end=True):
    """ChainerRL's single-env loop: act_and_train/stop_episode_and_train.

    ``stop_at_end`` also ends the unfinished last episode (which may train
    the agent once more). Returns the returns of the finished episodes.
    """
    returns = []
    obs, _ = env.reset(seed=env_seed)
    reward, episode_return = 0.0, 0.0
    for _ in range(steps):
        action = agent.act_and_train(obs, reward)
        obs, reward, terminated, truncated, _ = env.step(action)
        episode_return += reward
        if terminated or truncated:
            agent.stop_episode_and_train(obs, reward, terminated)
            returns.append(episode_return)
            obs, _ = env.reset()
            reward, episode_return = 0.0, 0.0
    if stop_at_end:
        agent.stop_episode_and_train(obs, reward, False)
    return returns


def train_batch(agent, vec_env, steps):
    """ChainerRL's batch loop over a vector env; ``steps`` counts batch
    steps."""
    obs = vec_env.reset()
    for _ in range(steps):
        actions = agent.batch_act_and_train(obs)
        obs, rewards, dones, infos = vec_env.step(actions)
        resets = [info.get('needs_reset', False) for info in infos]
        agent.batch_observe_and_train(obs, rewards, dones, resets)
        mask = [not (d or r) for d, r in zip(dones, resets)]
        obs = vec_env.reset(mask)


def greedy_returns(agent, env, n_episodes=4, max_steps=20,
                   check_action=None):
    """Returns of greedy episodes (act/stop_episode) of at most
    ``max_steps`` steps; ``check_action`` is called on every action."""
    returns = []
    for _ in range(n_episodes):
        obs, _ = env.reset()
        total = 0.0
        for _ in range(max_steps):
            action = agent.act(obs)
            if check_action is not None:
                check_action(action)
            obs, reward, terminated, truncated, _ = env.step(action)
            total += reward
            if terminated or truncated:
                break
        agent.stop_episode()
        returns.append(total)
    return returns
