// A sphere (radius 0.5) pressed 0.01 into a block (2 x 2 x 0.5), linear tetrahedra.
// Meshed with: gmsh -3 -format msh41 sphere_on_block.geo -o sphere_on_block.msh
SetFactory("OpenCASCADE");
R = 0.5;
pen = 0.01;
Box(1) = {-1, -1, -0.5, 2, 2, 0.5};
Sphere(2) = {0, 0, R - pen, R};
Mesh.CharacteristicLengthMin = 0.05;
Mesh.CharacteristicLengthMax = 0.15;
// Finer near the contact zone.
Field[1] = Ball;
Field[1].Radius = 0.3;
Field[1].Thickness = 0.2;
Field[1].VIn = 0.04;
Field[1].VOut = 0.15;
Field[1].ZCenter = 0;
Background Field = 1;
Physical Volume("Block") = {1};
Physical Volume("Sphere") = {2};
// Box faces: 1 x-, 2 x+, 3 y-, 4 y+, 5 z-, 6 z+; sphere: 7.
Physical Surface("BlockTop") = {6};
Physical Surface("SphereSurface") = {7};
