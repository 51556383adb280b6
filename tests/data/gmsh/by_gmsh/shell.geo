// A shell: two faces of a cube meshed in 2D (gmsh -2), z varies. The surface groups are
// surfaces, the curve group a curve, as in 3D.
SetFactory("OpenCASCADE");
Box(1) = {0,0,0, 1,1,1};
Mesh.CharacteristicLengthMin = 1;
Mesh.CharacteristicLengthMax = 2;
Physical Surface("Top") = {6};
Physical Surface("Side") = {1};
Physical Curve("Edge") = {2};
