// Third order (gmsh -order 3): tri10 (type 21) and tet20 (type 29), which the reader skips.
SetFactory("OpenCASCADE");
Box(1) = {0,0,0, 1,1,1};
Mesh.CharacteristicLengthMin = 1;
Mesh.CharacteristicLengthMax = 2;
Physical Surface("Top") = {6};
Physical Volume("Body") = {1};
