// One name at three dimensions: "ATop" is a surface, four curves and a point of box 1.
SetFactory("OpenCASCADE");
Box(1) = {0,0,0, 1,1,1};
Box(2) = {0,0,1.05, 1,1,1};
Mesh.CharacteristicLengthMin = 1;
Mesh.CharacteristicLengthMax = 2;
Physical Surface("ATop") = {6};
Physical Curve("ATop") = {2,6,10,12};
Physical Point("ATop") = {1};
Physical Surface("BBot") = {11};
Physical Volume("A") = {1};
Physical Volume("B") = {2};
