"""Reads a VTU file through VTK's own XML reader, for the output checks of contact-search."""


def read_vtu(path, fail):
    """The unstructured grid in `path`; calls fail(message) when VTK is missing."""
    try:
        import vtk
    except ImportError:
        fail("python3-vtk9 is not installed (scripts/setup.sh installs it)")
    reader = vtk.vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    return reader.GetOutput()
