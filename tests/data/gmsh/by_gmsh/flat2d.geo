// A planar (z = 0) 2D model: its surface group holds the body, its curve group is its surface.
SetFactory("OpenCASCADE");
Rectangle(1) = {0,0,0, 2,1};
Mesh.CharacteristicLengthMin = 0.5;
Mesh.CharacteristicLengthMax = 0.5;
Physical Curve("Top") = {3};
Physical Surface("Plate") = {1};
