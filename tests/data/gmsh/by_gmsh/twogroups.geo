// One face in two physical groups: MSH 2.2 writes its elements once per group, with one id
// (Mesh.PreserveNumberingMsh2) and the same nodes.
SetFactory("OpenCASCADE");
Box(1) = {0,0,0, 1,1,1};
Mesh.CharacteristicLengthMin = 1;
Mesh.CharacteristicLengthMax = 2;
Mesh.PreserveNumberingMsh2 = 1;
Physical Surface("Top") = {6};
Physical Surface("Outer") = {1,2,3,4,5,6};
Physical Volume("Body") = {1};
