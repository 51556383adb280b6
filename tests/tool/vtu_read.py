"""Reads a VTU file through VTK's own XML reader, for the output checks of contact-search."""
import math


def read_vtu(path, fail):
    """The unstructured grid in `path`; calls fail(message) when VTK is missing or reads nothing."""
    try:
        import vtk
    except ImportError:
        fail("python3-vtk9 is not installed (scripts/setup.sh installs it)")
    reader = vtk.vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    if grid is None or grid.GetNumberOfPoints() == 0:
        fail("VTK read no points from " + path)
    return grid


def values(array):
    """All values of a one-component VTK array as a list."""
    return [array.GetValue(i) for i in range(array.GetNumberOfTuples())]


def tuples(array):
    """All tuples of a VTK array as a list of tuples."""
    return [array.GetTuple(i) for i in range(array.GetNumberOfTuples())]


def check_encoding(path, ascii_expected, fail):
    """The file's data arrays are inline ASCII, or zlib-compressed appended binary, as asked."""
    with open(path, "rb") as f:
        head = f.read(1 << 16)
        f.seek(0)
        text = f.read()
    markup = head.split(b"<AppendedData")[0]
    if ascii_expected:
        if b'format="appended"' in markup or b"<AppendedData" in text:
            fail(path + ": expected ASCII data arrays")
    else:
        if b'compressor="vtkZLibDataCompressor"' not in markup:
            fail(path + ": no vtkZLibDataCompressor in the header")
        if b'format="ascii"' in markup or b'format="appended"' not in markup:
            fail(path + ": expected appended binary data arrays")


def check_point_data(grid, fail):
    """gap and normal are NaN exactly where paired is 0; finite, with unit normals, where it is 1.
    Returns (gap, paired) lists."""
    pd = grid.GetPointData()
    for name in ("gap", "normal", "paired", "node_id"):
        if pd.GetArray(name) is None:
            fail("VTU lacks point array %r" % name)
    if pd.GetScalars() is None or pd.GetScalars().GetName() != "gap":
        fail("gap is not the active point scalar (ParaView's default colouring)")
    gap = values(pd.GetArray("gap"))
    paired = values(pd.GetArray("paired"))
    normal = tuples(pd.GetArray("normal"))
    for k, (g, p, n) in enumerate(zip(gap, paired, normal)):
        if p == 0:
            if not (math.isnan(g) and all(math.isnan(c) for c in n)):
                fail("point %d has no pair but gap %r, normal %r" % (k, g, n))
        else:
            if math.isnan(g) or abs(math.sqrt(sum(c * c for c in n)) - 1) > 1e-9:
                fail("paired point %d has gap %r, normal %r" % (k, g, n))
    return gap, paired
