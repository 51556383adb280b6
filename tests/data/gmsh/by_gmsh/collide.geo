// Physical tags that collide across dimensions: volume group 1 and surface group 1. A partitioned
// file (-part 2) gives its interior partition faces the volume's tag 1; they are not in "Top".
SetFactory("OpenCASCADE");
Box(1) = {0,0,0, 2,1,1};
Mesh.CharacteristicLengthMin = 1;
Mesh.CharacteristicLengthMax = 1;
Physical Volume("Body", 1) = {1};
Physical Surface("Top", 1) = {6};
Physical Surface("Bottom", 2) = {5};
Physical Curve("Edge", 1) = {2};
