SetFactory("OpenCASCADE");
Box(1) = {0,0,0, 1,1,0.5};
Box(2) = {0.2,0.2,0.52, 0.6,0.6,0.3};
Mesh.CharacteristicLengthMax = 0.5;
Physical Surface("BlockTop") = {-6, 2};
Physical Surface("PunchBottom") = {11};
Physical Volume("Block") = {1};
Physical Volume("Punch") = {2};
