// No physical groups: Gmsh saves every element with its elementary entity.
SetFactory("OpenCASCADE");
Box(1) = {0,0,0, 1,1,1};
Box(2) = {0,0,1.05, 1,1,1};
Mesh.CharacteristicLengthMin = 1;
Mesh.CharacteristicLengthMax = 2;
