// The sphere on a block with second-order elements (10-node tetrahedra, 6-node triangles).
// Meshed with: gmsh -3 -order 2 -format msh22 sphere_on_block_o2.geo -o sphere_on_block_o2.msh
SetFactory("OpenCASCADE");
R = 0.5;
pen = 0.01;
Box(1) = {-1, -1, -0.5, 2, 2, 0.5};
Sphere(2) = {0, 0, R - pen, R};
Mesh.CharacteristicLengthMin = 0.1;
Mesh.CharacteristicLengthMax = 0.3;
Field[1] = Ball;
Field[1].Radius = 0.3;
Field[1].Thickness = 0.2;
Field[1].VIn = 0.08;
Field[1].VOut = 0.3;
Background Field = 1;
Mesh.ElementOrder = 2;
Mesh.SecondOrderLinear = 0;  // midside nodes on the true sphere
Physical Volume("Block") = {1};
Physical Volume("Sphere") = {2};
Physical Surface("BlockTop") = {6};
Physical Surface("SphereSurface") = {7};
