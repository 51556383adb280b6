// No physical groups, partitioned (-part 2): faces split between the partitions are one surface
// entity_2_<parent tag>, the interior partition faces none, as in the unpartitioned file.
SetFactory("OpenCASCADE");
Box(1) = {0,0,0, 2,1,1};
Mesh.CharacteristicLengthMin = 1;
Mesh.CharacteristicLengthMax = 1;
