// A 2D cylinder (radius 0.5) pressed 0.01 into a block (2 x 0.5), plane strain.
// Meshed with: gmsh -2 -format msh41 cylinder_on_block_2d.geo -o cylinder_on_block_2d.msh
SetFactory("OpenCASCADE");
R = 0.5;
pen = 0.01;
Rectangle(1) = {-1, -0.5, 0, 2, 0.5};
Disk(2) = {0, R - pen, 0, R};
// Keep the bodies separate (no boolean): they overlap by pen.
Mesh.CharacteristicLengthMin = 0.02;
Mesh.CharacteristicLengthMax = 0.05;
Physical Surface("Block") = {1};
Physical Surface("Cylinder") = {2};
// Block: curves 1 bottom, 2 right, 3 top, 4 left; Disk: curve 5.
Physical Curve("BlockTop") = {3};
Physical Curve("CylinderEdge") = {5};
Recombine Surface{1};
