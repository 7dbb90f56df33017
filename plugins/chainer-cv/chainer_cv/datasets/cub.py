"""Caltech-UCSD Birds-200-2011: 200 bird species, with boxes and
segmentation probability maps."""
import os

import numpy

from chainer_cv.chainer_experimental.datasets.sliceable import GetterDataset
from chainer_cv.datasets import _download
from chainer_cv.datasets import _io

cub_label_names = (
    'Black_footed_Albatross', 'Laysan_Albatross', 'Sooty_Albatross',
    'Groove_billed_Ani', 'Crested_Auklet', 'Least_Auklet', 'Parakeet_Auklet',
    'Rhinoceros_Auklet', 'Brewer_Blackbird', 'Red_winged_Blackbird',
    'Rusty_Blackbird', 'Yellow_headed_Blackbird', 'Bobolink',
    'Indigo_Bunting', 'Lazuli_Bunting', 'Painted_Bunting', 'Cardinal',
    'Spotted_Catbird', 'Gray_Catbird', 'Yellow_breasted_Chat',
    'Eastern_Towhee', 'Chuck_will_Widow', 'Brandt_Cormorant',
    'Red_faced_Cormorant', 'Pelagic_Cormorant', 'Bronzed_Cowbird',
    'Shiny_Cowbird', 'Brown_Creeper', 'American_Crow', 'Fish_Crow',
    'Black_billed_Cuckoo', 'Mangrove_Cuckoo', 'Yellow_billed_Cuckoo',
    'Gray_crowned_Rosy_Finch', 'Purple_Finch', 'Northern_Flicker',
    'Acadian_Flycatcher', 'Great_Crested_Flycatcher', 'Least_Flycatcher',
    'Olive_sided_Flycatcher', 'Scissor_tailed_Flycatcher',
    'Vermilion_Flycatcher', 'Yellow_bellied_Flycatcher', 'Frigatebird',
    'Northern_Fulmar', 'Gadwall', 'American_Goldfinch', 'European_Goldfinch',
    'Boat_tailed_Grackle', 'Eared_Grebe', 'Horned_Grebe', 'Pied_billed_Grebe',
    'Western_Grebe', 'Blue_Grosbeak', 'Evening_Grosbeak', 'Pine_Grosbeak',
    'Rose_breasted_Grosbeak', 'Pigeon_Guillemot', 'California_Gull',
    'Glaucous_winged_Gull', 'Heermann_Gull', 'Herring_Gull', 'Ivory_Gull',
    'Ring_billed_Gull', 'Slaty_backed_Gull', 'Western_Gull',
    'Anna_Hummingbird', 'Ruby_throated_Hummingbird', 'Rufous_Hummingbird',
    'Green_Violetear', 'Long_tailed_Jaeger', 'Pomarine_Jaeger', 'Blue_Jay',
    'Florida_Jay', 'Green_Jay', 'Dark_eyed_Junco', 'Tropical_Kingbird',
    'Gray_Kingbird', 'Belted_Kingfisher', 'Green_Kingfisher',
    'Pied_Kingfisher', 'Ringed_Kingfisher', 'White_breasted_Kingfisher',
    'Red_legged_Kittiwake', 'Horned_Lark', 'Pacific_Loon', 'Mallard',
    'Western_Meadowlark', 'Hooded_Merganser', 'Red_breasted_Merganser',
    'Mockingbird', 'Nighthawk', 'Clark_Nutcracker',
    'White_breasted_Nuthatch', 'Baltimore_Oriole', 'Hooded_Oriole',
    'Orchard_Oriole', 'Scott_Oriole', 'Ovenbird', 'Brown_Pelican',
    'White_Pelican', 'Western_Wood_Pewee', 'Sayornis', 'American_Pipit',
    'Whip_poor_Will', 'Horned_Puffin', 'Common_Raven', 'White_necked_Raven',
    'American_Redstart', 'Geococcyx', 'Loggerhead_Shrike',
    'Great_Grey_Shrike', 'Baird_Sparrow', 'Black_throated_Sparrow',
    'Brewer_Sparrow', 'Chipping_Sparrow', 'Clay_colored_Sparrow',
    'House_Sparrow', 'Field_Sparrow', 'Fox_Sparrow', 'Grasshopper_Sparrow',
    'Harris_Sparrow', 'Henslow_Sparrow', 'Le_Conte_Sparrow',
    'Lincoln_Sparrow', 'Nelson_Sharp_tailed_Sparrow', 'Savannah_Sparrow',
    'Seaside_Sparrow', 'Song_Sparrow', 'Tree_Sparrow', 'Vesper_Sparrow',
    'White_crowned_Sparrow', 'White_throated_Sparrow',
    'Cape_Glossy_Starling', 'Bank_Swallow', 'Barn_Swallow', 'Cliff_Swallow',
    'Tree_Swallow', 'Scarlet_Tanager', 'Summer_Tanager', 'Artic_Tern',
    'Black_Tern', 'Caspian_Tern', 'Common_Tern', 'Elegant_Tern',
    'Forsters_Tern', 'Least_Tern', 'Green_tailed_Towhee', 'Brown_Thrasher',
    'Sage_Thrasher', 'Black_capped_Vireo', 'Blue_headed_Vireo',
    'Philadelphia_Vireo', 'Red_eyed_Vireo', 'Warbling_Vireo',
    'White_eyed_Vireo', 'Yellow_throated_Vireo', 'Bay_breasted_Warbler',
    'Black_and_white_Warbler', 'Black_throated_Blue_Warbler',
    'Blue_winged_Warbler', 'Canada_Warbler', 'Cape_May_Warbler',
    'Cerulean_Warbler', 'Chestnut_sided_Warbler', 'Golden_winged_Warbler',
    'Hooded_Warbler', 'Kentucky_Warbler', 'Magnolia_Warbler',
    'Mourning_Warbler', 'Myrtle_Warbler', 'Nashville_Warbler',
    'Orange_crowned_Warbler', 'Palm_Warbler', 'Pine_Warbler',
    'Prairie_Warbler', 'Prothonotary_Warbler', 'Swainson_Warbler',
    'Tennessee_Warbler', 'Wilson_Warbler', 'Worm_eating_Warbler',
    'Yellow_Warbler', 'Northern_Waterthrush', 'Louisiana_Waterthrush',
    'Bohemian_Waxwing', 'Cedar_Waxwing', 'American_Three_toed_Woodpecker',
    'Pileated_Woodpecker', 'Red_bellied_Woodpecker',
    'Red_cockaded_Woodpecker', 'Red_headed_Woodpecker', 'Downy_Woodpecker',
    'Bewick_Wren', 'Cactus_Wren', 'Carolina_Wren', 'House_Wren',
    'Marsh_Wren', 'Rock_Wren', 'Winter_Wren', 'Common_Yellowthroat')

_ROOT = 'pfnet/chainercv/cub'
_URL = 'http://www.vision.caltech.edu/visipedia-data/CUB-200-2011/' \
    'CUB_200_2011.tgz'
_PROB_MAP_URL = 'http://www.vision.caltech.edu/visipedia-data/' \
    'CUB-200-2011/segmentations.tgz'


def get_cub():
    """Download and unpack CUB-200-2011 if needed; return its directory."""
    root = _download.get_dataset(_ROOT, [_URL], 'CUB_200_2011')
    return os.path.join(root, 'CUB_200_2011')


def get_cub_prob_map():
    """Download and unpack the segmentations of CUB-200-2011 if needed;
    return their directory."""
    root = _download.get_dataset(_ROOT, [_PROB_MAP_URL], 'segmentations')
    return os.path.join(root, 'segmentations')


class CUBLabelDataset(GetterDataset):
    """Species labels of `Caltech-UCSD Birds-200-2011`_.

    .. _`Caltech-UCSD Birds-200-2011`:
        http://www.vision.caltech.edu/visipedia/CUB-200-2011.html

    Args:
        data_dir (str): the ``CUB_200_2011`` directory with ``images.txt``,
            ``bounding_boxes.txt`` and ``images/``; ``'auto'`` downloads it
            under ``$CHAINER_DATASET_ROOT/pfnet/chainercv/cub``.
        return_bbox (bool): add the key ``'bbox'``.
        prob_map_dir (str): the ``segmentations`` directory; ``'auto'``
            downloads it when ``return_prob_map`` is set.
        return_prob_map (bool): add the key ``'prob_map'``.

    The keys are ``'img'`` (float32 ``(3, H, W)``), ``'label'`` (int32, an
    index in :obj:`cub_label_names`, from the species folder ``NNN.Name``),
    then ``'bbox'`` (float32 ``(1, 4)``) and ``'prob_map'`` (float32
    ``(H, W)`` in [0, 1], the probability that a pixel is the bird) as
    asked.
    """

    def __init__(self, data_dir='auto', return_bbox=False,
                 prob_map_dir='auto', return_prob_map=False):
        super().__init__()
        owner = type(self).__name__
        if data_dir == 'auto':
            data_dir = get_cub()
        if prob_map_dir == 'auto' and return_prob_map:
            prob_map_dir = get_cub_prob_map()
        self.data_dir = data_dir
        self.prob_map_dir = prob_map_dir
        images_path = os.path.join(data_dir, 'images.txt')
        boxes_path = os.path.join(data_dir, 'bounding_boxes.txt')
        try:
            self.paths = [line.split()[1] for line in
                          _io.read_lines(images_path, owner, data_dir)]
            self._labels = numpy.array(
                [int(path.split('/')[0].split('.')[0]) - 1
                 for path in self.paths], dtype=numpy.int32)
            boxes = numpy.array(
                [[float(v) for v in line.split()[1:5]] for line in
                 _io.read_lines(boxes_path, owner, data_dir)],
                dtype=numpy.float32).reshape(-1, 4)
        except (IndexError, ValueError) as e:
            raise ValueError(
                '{}: images.txt should have lines "id NNN.Species/file.jpg" '
                'and bounding_boxes.txt lines "id x y width height": {}'
                .format(owner, e)) from e
        if len(boxes) != len(self.paths):
            raise ValueError('{}: {} lists {} images but {} has {} boxes'
                             .format(owner, images_path, len(self.paths),
                                     boxes_path, len(boxes)))
        # (x, y, width, height) -> (y_min, x_min, y_max, x_max)
        self._boxes = numpy.stack(
            [boxes[:, 1], boxes[:, 0], boxes[:, 1] + boxes[:, 3],
             boxes[:, 0] + boxes[:, 2]], axis=1)
        self.add_getter('img', self._get_image)
        self.add_getter('label', self._labels.__getitem__)
        self.add_getter('bbox', self._get_bbox)
        self.add_getter('prob_map', self._get_prob_map)
        keys = ('img', 'label')
        if return_bbox:
            keys += ('bbox',)
        if return_prob_map:
            keys += ('prob_map',)
        self.keys = keys

    def __len__(self):
        return len(self.paths)

    def _get_image(self, i):
        return _io.read_image(_io.join_inside(
            os.path.join(self.data_dir, 'images'), self.paths[i],
            type(self).__name__))

    def _get_bbox(self, i):
        return self._boxes[i:i + 1].copy()

    def _get_prob_map(self, i):
        path = _io.join_inside(
            self.prob_map_dir, os.path.splitext(self.paths[i])[0] + '.png',
            type(self).__name__)
        return _io.read_image(path, color=False)[0] / 255
