! SPDX-License-Identifier: MIT
! Fortran interface of the contact search: `use contact`. ISO_C_BINDING over the C API
! (contact/c_api.h); nothing here but argument conversion.
!
! Numbering: every node, segment, pair, surface and interface number this module takes or
! returns is 1-based (node k is column k of coords(:, k)); connectivity and CSR offsets too.
! Element ids and face numbers are as in the model file. This module checks the numbers it is
! given (node, surface and interface numbers) and names them 1-based; other messages from the
! library itself name 0-based indices (its "node 4" is node 5 here).
!
! Arrays are in Fortran order: coords(3, n) (or coords(2, n), or records coords(m, n) with the
! coordinates in rows 1..dim: read in place, not copied), normal(3, npairs), xi(2, npairs),
! shape(9, npairs). Separate arrays x(n), y(n), z(n) go through contact_update_xyz.
!
! Errors: every procedure returns ierr (CONTACT_OK = 0, else a CONTACT_ERROR_* code); the
! message is contact_last_error() (the last failure in the program) or contact_error(search)
! (the search's last failure inside the library).
module contact
    use, intrinsic :: iso_c_binding
    implicit none
    private

    ! Status codes (contact_status)
    integer, parameter, public :: CONTACT_OK = 0
    integer, parameter, public :: CONTACT_ERROR_NULL_HANDLE = 1
    integer, parameter, public :: CONTACT_ERROR_NULL_POINTER = 2
    integer, parameter, public :: CONTACT_ERROR_INVALID_ARGUMENT = 3
    integer, parameter, public :: CONTACT_ERROR_BUFFER_TOO_SMALL = 4
    integer, parameter, public :: CONTACT_ERROR_INVALID_INPUT = 5
    integer, parameter, public :: CONTACT_ERROR_UPDATE_FAILED = 6
    integer, parameter, public :: CONTACT_ERROR_WRONG_MODE = 7
    integer, parameter, public :: CONTACT_ERROR_OUT_OF_ORDER = 8
    integer, parameter, public :: CONTACT_ERROR_FILE = 9
    integer, parameter, public :: CONTACT_ERROR_NOT_FOUND = 10
    integer, parameter, public :: CONTACT_ERROR_OUT_OF_MEMORY = 11
    integer, parameter, public :: CONTACT_ERROR_INTERNAL = 12

    ! Segment types; node order gives the outward normal (contact/types.hpp)
    integer(c_int32_t), parameter, public :: CONTACT_LINE2 = 0, CONTACT_LINE3 = 1, &
        CONTACT_TRI3 = 2, CONTACT_TRI6 = 3, CONTACT_QUAD4 = 4, CONTACT_QUAD8 = 5, CONTACT_QUAD9 = 6
    integer, parameter, public :: CONTACT_MODE_NODE_TO_SEGMENT = 0
    integer, parameter, public :: CONTACT_MODE_SEGMENT_TO_SEGMENT = 1
    integer, parameter, public :: CONTACT_BROAD_PHASE_KDTREE = 0, CONTACT_BROAD_PHASE_BOXTREE = 1, &
        CONTACT_BROAD_PHASE_SWEEP = 2
    integer, parameter, public :: CONTACT_UPDATE_OK = 0, CONTACT_UPDATE_NOT_SET_UP = 1, &
        CONTACT_UPDATE_WRONG_NODE_COUNT = 2, CONTACT_UPDATE_BAD_COORDINATE_VIEW = 3, &
        CONTACT_UPDATE_NON_FINITE_COORDINATES = 4, CONTACT_UPDATE_COORDINATES_OUT_OF_RANGE = 5, &
        CONTACT_UPDATE_OUT_OF_MEMORY = 6, CONTACT_UPDATE_DEGENERATE_SEGMENT = 7
    ! How the surfaces face (contact_stats%orientation)
    integer, parameter, public :: CONTACT_ORIENTATION_UNKNOWN = 0, &
        CONTACT_ORIENTATION_CONSISTENT = 1, CONTACT_ORIENTATION_MASTER_INSIDE_OUT = 2, &
        CONTACT_ORIENTATION_SLAVE_INSIDE_OUT = 3
    ! Interface kinds (contact_model_interface's kind=)
    integer, parameter, public :: CONTACT_INTERFACE_CONTACT_PAIR = 0, CONTACT_INTERFACE_TIE = 1, &
        CONTACT_INTERFACE_GENERAL_CONTACT = 2
    integer, parameter, public :: CONTACT_PROJECTION_CONVERGED = 0, &
        CONTACT_PROJECTION_ON_BOUNDARY = 1, CONTACT_PROJECTION_DEGENERATE = 2, &
        CONTACT_PROJECTION_NOT_CONVERGED = 3

    ! A search between two surfaces (opaque). Free it with contact_destroy. Assigning one to
    ! another (t = s) copies no search: t is left empty (its own search freed), so that no two
    ! variables hold one search, which destroying either would leave the other pointing at.
    type, public :: contact_search
        type(c_ptr), private :: handle = c_null_ptr
        ! The last update was refused here, before the C API saw it: no fault node or segment.
        logical, private :: refused = .false.
    end type

    ! A model read from a file (opaque). Free it with contact_model_destroy. Assignment as for
    ! contact_search: the target is left empty.
    type, public :: contact_model
        type(c_ptr), private :: handle = c_null_ptr
    end type

    interface assignment(=)
        module procedure assign_search, assign_model
    end interface
    public :: assignment(=)

    ! What an update did (contact_update_stats); times in milliseconds.
    type, bind(c), public :: contact_stats
        integer(c_int32_t) :: status = 1          ! CONTACT_UPDATE_*
        integer(c_int32_t) :: rebuilt = 0         ! 1: candidate list rebuilt
        integer(c_int32_t) :: pairs = 0
        integer(c_int32_t) :: worst_projection = 0
        integer(c_int32_t) :: master_boxes = 0    ! masters whose boxes were made
        integer(c_int64_t) :: list_size = 0, candidates = 0, sat_survivors = 0, projections = 0
        real(c_double) :: time_bounds = 0, time_broad = 0, time_narrow = 0, time_projection = 0
        ! Orientation verdict (CONTACT_ORIENTATION_*) and the judged pairs: normals opposed,
        ! aligned, and of the aligned ones the slave point in front of the master or behind it
        integer(c_int32_t) :: orientation = 0
        integer(c_int32_t) :: orientation_opposed = 0, orientation_aligned = 0
        integer(c_int32_t) :: orientation_in_front = 0, orientation_behind = 0
        integer(c_int32_t) :: fault_node = 0      ! as contact_fault_node (1-based, 0: none)
        integer(c_int32_t) :: fault_segment = 0   ! degenerate segment (1-based, 0: none)
        integer(c_int32_t) :: fault_in_slave = 0  ! 1: fault_segment is a slave segment
    end type

    public :: contact_create, contact_destroy, contact_error, contact_last_error
    public :: contact_set_surfaces, contact_set_surfaces_nodes, contact_update, contact_update_xyz
    public :: contact_pair_count, contact_get_pairs, contact_csr_rows, contact_get_csr
    public :: contact_fault_node, contact_fault_segment
    public :: contact_capture_distance, contact_compute_overlaps, contact_get_overlaps
    public :: contact_model_read, contact_model_destroy, contact_model_num_nodes
    public :: contact_model_coordinates, contact_model_node_ids, contact_model_surface_count
    public :: contact_model_surface_name, contact_model_interface_count, contact_model_interface
    public :: contact_model_surface_sizes, contact_model_surface

    ! ---- C structures (contact/c_api.h) ----
    type, bind(c) :: c_options
        real(c_double) :: capture
        integer(c_int32_t) :: capture_relative, mode, self_contact, threads
        real(c_double) :: skin_relative
        integer(c_int32_t) :: broad_phase, warm_start
    end type

    type, bind(c) :: c_surface
        type(c_ptr) :: name = c_null_ptr
        integer(c_int32_t) :: num_segments = 0
        type(c_ptr) :: types = c_null_ptr, offsets = c_null_ptr, connectivity = c_null_ptr
        integer(c_int64_t) :: connectivity_size = 0
    end type

    type, bind(c) :: c_coordinates
        integer(c_int32_t) :: layout = 0, dim = 3, num_nodes = 0
        integer(c_int64_t) :: stride = 0
        type(c_ptr) :: x = c_null_ptr, y = c_null_ptr, z = c_null_ptr
    end type

    type, bind(c) :: c_overlaps_view
        integer(c_int32_t) :: count
        type(c_ptr) :: slave, master, overlap_area, capture_area, penetration_area, centroid
        type(c_ptr) :: gap_min, gap_max, vertex_count, vertices
    end type

    type, bind(c) :: c_interface_info
        type(c_ptr) :: name, slave, master
        integer(c_int32_t) :: kind, mode, self_contact
    end type

    type, bind(c) :: c_surface_info
        type(c_ptr) :: name
        integer(c_int32_t) :: node_surface, dim
        type(c_surface) :: segments
        type(c_ptr) :: element_ids, faces
        integer(c_int32_t) :: num_nodes
        type(c_ptr) :: nodes
    end type

    integer(c_int32_t), parameter :: LAYOUT_SEPARATE = 1, LAYOUT_STRIDED = 2
    integer(c_int32_t), parameter :: FIELD_SLAVE = 0, FIELD_MASTER = 1, FIELD_STATUS = 2, &
        FIELD_GAP = 3, FIELD_DISTANCE = 4, FIELD_XI = 5, FIELD_POINT = 6, FIELD_NORMAL = 7, &
        FIELD_TANGENT1 = 8, FIELD_TANGENT2 = 9, FIELD_SHAPE = 10

    ! The last failure in this program: from the library or from the checks of this module.
    character(len=:), allocatable :: last_message

    interface
        subroutine c_options_default(o) bind(c, name="contact_search_options_default")
            import :: c_options
            type(c_options), intent(out) :: o
        end subroutine
        function c_search_create(o, s) bind(c, name="contact_search_create") result(rc)
            import :: c_options, c_ptr, c_int
            type(c_options), intent(in) :: o
            type(c_ptr), intent(out) :: s
            integer(c_int) :: rc
        end function
        subroutine c_search_destroy(s) bind(c, name="contact_search_destroy")
            import :: c_ptr
            type(c_ptr), value :: s
        end subroutine
        function c_search_error(s) bind(c, name="contact_search_error") result(m)
            import :: c_ptr
            type(c_ptr), value :: s
            type(c_ptr) :: m
        end function
        function c_last_error() bind(c, name="contact_last_error") result(m)
            import :: c_ptr
            type(c_ptr) :: m
        end function
        function c_segment_node_count(t) bind(c, name="contact_segment_node_count") result(n)
            import :: c_int32_t, c_int
            integer(c_int32_t), value :: t
            integer(c_int) :: n
        end function
        function c_strlen(p) bind(c, name="strlen") result(n)
            import :: c_ptr, c_size_t
            type(c_ptr), value :: p
            integer(c_size_t) :: n
        end function
        function c_set_surfaces(s, m, sl, x) bind(c, name="contact_search_set_surfaces") result(rc)
            import :: c_ptr, c_surface, c_coordinates, c_int
            type(c_ptr), value :: s
            type(c_surface), intent(in) :: m, sl
            type(c_coordinates), intent(in) :: x
            integer(c_int) :: rc
        end function
        function c_set_surfaces_nodes(s, m, nodes, n, x) &
            bind(c, name="contact_search_set_surfaces_nodes") result(rc)
            import :: c_ptr, c_surface, c_coordinates, c_int, c_int32_t
            type(c_ptr), value :: s, nodes
            type(c_surface), intent(in) :: m
            integer(c_int32_t), value :: n
            type(c_coordinates), intent(in) :: x
            integer(c_int) :: rc
        end function
        function c_update(s, x, st) bind(c, name="contact_search_update") result(rc)
            import :: c_ptr, c_coordinates, contact_stats, c_int
            type(c_ptr), value :: s
            type(c_coordinates), intent(in) :: x
            type(contact_stats), intent(inout) :: st
            integer(c_int) :: rc
        end function
        function c_pair_count(s, n) bind(c, name="contact_search_pair_count") result(rc)
            import :: c_ptr, c_int32_t, c_int
            type(c_ptr), value :: s
            integer(c_int32_t), intent(out) :: n
            integer(c_int) :: rc
        end function
        function c_search_mode(s, m) bind(c, name="contact_search_mode") result(rc)
            import :: c_ptr, c_int32_t, c_int
            type(c_ptr), value :: s
            integer(c_int32_t), intent(out) :: m
            integer(c_int) :: rc
        end function
        function c_fault_node(s, n) bind(c, name="contact_search_fault_node") result(rc)
            import :: c_ptr, c_int32_t, c_int
            type(c_ptr), value :: s
            integer(c_int32_t), intent(out) :: n
            integer(c_int) :: rc
        end function
        function c_fault_segment(s, n, in_slave) bind(c, name="contact_search_fault_segment") &
            result(rc)
            import :: c_ptr, c_int32_t, c_int
            type(c_ptr), value :: s
            integer(c_int32_t), intent(out) :: n, in_slave
            integer(c_int) :: rc
        end function
        function c_capture_distance(s, d) bind(c, name="contact_search_capture_distance") result(rc)
            import :: c_ptr, c_double, c_int
            type(c_ptr), value :: s
            real(c_double), intent(out) :: d
            integer(c_int) :: rc
        end function
        function c_copy_index(s, f, out, n) bind(c, name="contact_search_copy_index_field") result(rc)
            import :: c_ptr, c_int32_t, c_int64_t, c_int
            type(c_ptr), value :: s, out
            integer(c_int32_t), value :: f
            integer(c_int64_t), value :: n
            integer(c_int) :: rc
        end function
        function c_copy_real(s, f, out, n) bind(c, name="contact_search_copy_real_field") result(rc)
            import :: c_ptr, c_int32_t, c_int64_t, c_int
            type(c_ptr), value :: s, out
            integer(c_int32_t), value :: f
            integer(c_int64_t), value :: n
            integer(c_int) :: rc
        end function
        function c_csr_rows(s, n) bind(c, name="contact_search_csr_rows") result(rc)
            import :: c_ptr, c_int32_t, c_int
            type(c_ptr), value :: s
            integer(c_int32_t), intent(out) :: n
            integer(c_int) :: rc
        end function
        function c_pairs_csr(s, out, n) bind(c, name="contact_search_pairs_csr") result(rc)
            import :: c_ptr, c_int64_t, c_int
            type(c_ptr), value :: s, out
            integer(c_int64_t), value :: n
            integer(c_int) :: rc
        end function
        function c_compute_overlaps(s, x, n) bind(c, name="contact_search_compute_overlaps") &
            result(rc)
            import :: c_ptr, c_coordinates, c_int32_t, c_int
            type(c_ptr), value :: s
            type(c_coordinates), intent(in) :: x
            integer(c_int32_t), intent(out) :: n
            integer(c_int) :: rc
        end function
        function c_get_overlaps(s, v) bind(c, name="contact_search_overlaps_view") result(rc)
            import :: c_ptr, c_overlaps_view, c_int
            type(c_ptr), value :: s
            type(c_overlaps_view), intent(out) :: v
            integer(c_int) :: rc
        end function
        function c_model_read(path, m) bind(c, name="contact_model_read") result(rc)
            import :: c_char, c_ptr, c_int
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), intent(out) :: m
            integer(c_int) :: rc
        end function
        subroutine c_model_destroy(m) bind(c, name="contact_model_destroy")
            import :: c_ptr
            type(c_ptr), value :: m
        end subroutine
        function c_model_num_nodes(m, n) bind(c, name="contact_model_num_nodes") result(rc)
            import :: c_ptr, c_int32_t, c_int
            type(c_ptr), value :: m
            integer(c_int32_t), intent(out) :: n
            integer(c_int) :: rc
        end function
        function c_model_coordinates(m, p) bind(c, name="contact_model_coordinates") result(rc)
            import :: c_ptr, c_int
            type(c_ptr), value :: m
            type(c_ptr), intent(out) :: p
            integer(c_int) :: rc
        end function
        function c_model_node_ids(m, p) bind(c, name="contact_model_node_ids") result(rc)
            import :: c_ptr, c_int
            type(c_ptr), value :: m
            type(c_ptr), intent(out) :: p
            integer(c_int) :: rc
        end function
        function c_model_surface_count(m, n) bind(c, name="contact_model_surface_count") result(rc)
            import :: c_ptr, c_int32_t, c_int
            type(c_ptr), value :: m
            integer(c_int32_t), intent(out) :: n
            integer(c_int) :: rc
        end function
        function c_model_surface_name(m, i, p) bind(c, name="contact_model_surface_name") result(rc)
            import :: c_ptr, c_int32_t, c_int
            type(c_ptr), value :: m
            integer(c_int32_t), value :: i
            type(c_ptr), intent(out) :: p
            integer(c_int) :: rc
        end function
        function c_model_interface_count(m, n) bind(c, name="contact_model_interface_count") &
            result(rc)
            import :: c_ptr, c_int32_t, c_int
            type(c_ptr), value :: m
            integer(c_int32_t), intent(out) :: n
            integer(c_int) :: rc
        end function
        function c_model_interface(m, i, info) bind(c, name="contact_model_interface") result(rc)
            import :: c_ptr, c_int32_t, c_int, c_interface_info
            type(c_ptr), value :: m
            integer(c_int32_t), value :: i
            type(c_interface_info), intent(out) :: info
            integer(c_int) :: rc
        end function
        function c_model_surface(m, name, info) bind(c, name="contact_model_surface") result(rc)
            import :: c_ptr, c_char, c_int, c_surface_info
            type(c_ptr), value :: m
            character(kind=c_char), intent(in) :: name(*)
            type(c_surface_info), intent(out) :: info
            integer(c_int) :: rc
        end function
        function c_model_surface_kind(m, name, nodes, info) &
            bind(c, name="contact_model_surface_kind") result(rc)
            import :: c_ptr, c_char, c_int, c_int32_t, c_surface_info
            type(c_ptr), value :: m
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int32_t), value :: nodes
            type(c_surface_info), intent(out) :: info
            integer(c_int) :: rc
        end function
    end interface

contains

    ! ---- Messages ----

    ! Fortran string of a NUL-terminated C string.
    function from_c(p) result(s)
        type(c_ptr), intent(in) :: p
        character(len=:), allocatable :: s
        character(kind=c_char), pointer :: chars(:)
        integer :: n, i
        if (.not. c_associated(p)) then
            s = ''
            return
        end if
        n = int(c_strlen(p))
        call c_f_pointer(p, chars, [n])
        allocate (character(len=n) :: s)
        do i = 1, n
            s(i:i) = chars(i)
        end do
    end function

    ! Keeps the library's message of a failed call.
    subroutine took(rc, ierr)
        integer(c_int), intent(in) :: rc
        integer, intent(out) :: ierr
        ierr = int(rc)
        if (rc /= 0) last_message = from_c(c_last_error())
    end subroutine

    ! A failure found by this module's own checks.
    subroutine refuse(ierr, code, message)
        integer, intent(out) :: ierr
        integer, intent(in) :: code
        character(len=*), intent(in) :: message
        ierr = code
        last_message = message
    end subroutine

    !> Message of the last failure in the program ('' if none).
    function contact_last_error() result(msg)
        character(len=:), allocatable :: msg
        if (allocated(last_message)) then
            msg = last_message
        else
            msg = ''
        end if
    end function

    !> Message of the search's last failure inside the library ('' if none).
    function contact_error(search) result(msg)
        type(contact_search), intent(in) :: search
        character(len=:), allocatable :: msg
        msg = from_c(c_search_error(search%handle))
    end function

    ! ---- Search ----

    !> Creates a search. Defaults: capture = 0.5 x mean master segment size (capture_relative),
    !> node-to-segment mode, one thread, skin_relative 0.1, sweep broad phase (a box tree where the
    !> sweep would scan more than 32 pairs per box), warm starts (warm_start=.false.: every update
    !> equals a fresh search bit for bit; the C API's warm_start).
    subroutine contact_create(search, ierr, capture, capture_relative, mode, self_contact, &
                              threads, skin_relative, broad_phase, warm_start)
        type(contact_search), intent(inout) :: search
        integer, intent(out) :: ierr
        real(c_double), intent(in), optional :: capture, skin_relative
        logical, intent(in), optional :: capture_relative, self_contact, warm_start
        integer, intent(in), optional :: mode, threads, broad_phase
        type(c_options) :: o
        type(c_ptr) :: h
        call c_options_default(o)
        if (present(capture)) o%capture = capture
        if (present(capture_relative)) o%capture_relative = merge(1, 0, capture_relative)
        if (present(mode)) o%mode = int(mode, c_int32_t)
        if (present(self_contact)) o%self_contact = merge(1, 0, self_contact)
        if (present(threads)) o%threads = int(threads, c_int32_t)
        if (present(skin_relative)) o%skin_relative = skin_relative
        if (present(broad_phase)) o%broad_phase = int(broad_phase, c_int32_t)
        if (present(warm_start)) o%warm_start = merge(1, 0, warm_start)
        call took(c_search_create(o, h), ierr)
        if (ierr == CONTACT_OK) then
            call contact_destroy(search)
            search%handle = h
        end if
    end subroutine

    ! t = s for searches and models: t is left empty (see the types).
    subroutine assign_search(lhs, rhs)
        type(contact_search), intent(inout) :: lhs
        type(contact_search), intent(in) :: rhs
        if (c_associated(lhs%handle) .and. c_associated(rhs%handle)) then
            if (c_associated(lhs%handle, rhs%handle)) return  ! s = s
        end if
        call contact_destroy(lhs)
    end subroutine
    subroutine assign_model(lhs, rhs)
        type(contact_model), intent(inout) :: lhs
        type(contact_model), intent(in) :: rhs
        if (c_associated(lhs%handle) .and. c_associated(rhs%handle)) then
            if (c_associated(lhs%handle, rhs%handle)) return
        end if
        call contact_model_destroy(lhs)
    end subroutine

    !> Frees a search (a search never created is fine).
    subroutine contact_destroy(search)
        type(contact_search), intent(inout) :: search
        call c_search_destroy(search%handle)
        search%handle = c_null_ptr
        search%refused = .false.
    end subroutine

    ! Coordinates coords(m, n) read in place as dim-dimensional points (rows 1..dim).
    subroutine view_of(coords, dim, x, ierr)
        real(c_double), intent(in), target, contiguous :: coords(:, :)
        integer, intent(in), optional :: dim
        type(c_coordinates), intent(out) :: x
        integer, intent(out) :: ierr
        ierr = CONTACT_OK
        x%dim = int(size(coords, 1), c_int32_t)
        if (present(dim)) x%dim = int(dim, c_int32_t)
        if (x%dim /= 2 .and. x%dim /= 3) then
            call refuse(ierr, CONTACT_ERROR_INVALID_ARGUMENT, 'contact: coords has dimension ' // &
                        itoa(int(x%dim)) // ' (expected coords(2, n) or coords(3, n), or dim=)')
            return
        end if
        if (size(coords, 1) < x%dim) then
            call refuse(ierr, CONTACT_ERROR_INVALID_ARGUMENT, 'contact: coords has ' // &
                        itoa(size(coords, 1)) // ' rows, fewer than dim = ' // itoa(int(x%dim)))
            return
        end if
        x%layout = LAYOUT_STRIDED
        x%num_nodes = int(size(coords, 2), c_int32_t)
        x%stride = size(coords, 1)
        if (size(coords) > 0) x%x = c_loc(coords)
    end subroutine

    ! A surface for the C API: 0-based copies of the 1-based connectivity and offsets.
    subroutine surface_of(types, nodes, offsets, name, conn0, off0, s, ierr)
        integer(c_int32_t), intent(in), target, contiguous :: types(:)
        integer(c_int32_t), intent(in) :: nodes(:)
        integer(c_int32_t), intent(in), optional :: offsets(:)
        character(kind=c_char, len=*), intent(in), target :: name
        integer(c_int32_t), intent(out), allocatable, target :: conn0(:), off0(:)
        type(c_surface), intent(out) :: s
        integer, intent(out) :: ierr
        ierr = CONTACT_OK
        allocate (conn0(size(nodes)))
        conn0 = nodes - 1
        s%name = c_loc(name)
        s%num_segments = int(size(types), c_int32_t)
        if (size(types) > 0) s%types = c_loc(types)
        if (size(nodes) > 0) s%connectivity = c_loc(conn0)
        s%connectivity_size = size(nodes, kind=c_int64_t)
        if (present(offsets)) then
            if (size(offsets) /= size(types) + 1) then
                call refuse(ierr, CONTACT_ERROR_INVALID_ARGUMENT, 'contact: offsets has ' // &
                            itoa(size(offsets)) // ' entries, expected number of segments + 1 = ' &
                            // itoa(size(types) + 1))
                return
            end if
            if (size(offsets) > 0) then
                if (offsets(1) /= 1) then
                    call refuse(ierr, CONTACT_ERROR_INVALID_ARGUMENT, 'contact: offsets(1) is ' &
                                // itoa(int(offsets(1))) // ', not 1')
                    return
                end if
            end if
            allocate (off0(size(offsets)))
            off0 = offsets - 1
            s%offsets = c_loc(off0)
        end if
    end subroutine

    ! Whether every node number in nodes (the argument `arg`) lies in 1 .. num_nodes (the columns
    ! of coords); if not, the refusal names the first one outside, and its segment of the `role`
    ! surface when the types are given.
    subroutine check_nodes(fn, arg, role, nodes, num_nodes, ierr, types, offsets)
        character(len=*), intent(in) :: fn, arg, role
        integer(c_int32_t), intent(in) :: nodes(:)
        integer, intent(in) :: num_nodes
        integer, intent(out) :: ierr
        integer(c_int32_t), intent(in), optional :: types(:), offsets(:)
        integer :: k, seg
        character(len=:), allocatable :: in_segment
        ierr = CONTACT_OK
        do k = 1, size(nodes)
            if (nodes(k) >= 1 .and. nodes(k) <= num_nodes) cycle
            in_segment = ''
            if (present(types)) then
                seg = segment_of(k)
                if (seg > 0) in_segment = ', in ' // role // ' segment ' // itoa(seg) // ','
            end if
            call refuse(ierr, CONTACT_ERROR_INVALID_INPUT, fn // ': ' // arg // '(' // itoa(k) // &
                        ') = ' // itoa(int(nodes(k))) // in_segment // ' is not a node number (1 ' &
                        // '.. ' // itoa(num_nodes) // ': the columns of coords)')
            return
        end do
    contains
        ! The 1-based segment holding connectivity entry k, 0 if none does.
        integer function segment_of(k) result(seg)
            integer, intent(in) :: k
            integer :: last
            seg = 0
            if (present(offsets)) then
                do seg = 1, size(offsets) - 1
                    if (k >= offsets(seg) .and. k < offsets(seg + 1)) return
                end do
            else
                last = 0
                do seg = 1, size(types)
                    last = last + int(c_segment_node_count(types(seg)))
                    if (k <= last) return
                end do
            end if
            seg = 0
        end function
    end subroutine

    !> Registers the surfaces (copied): segment types, 1-based node numbers of each segment back
    !> to back (or CSR with 1-based offsets, size nseg + 1), checked against coords(dim, n).
    subroutine contact_set_surfaces(search, master_types, master_nodes, slave_types, slave_nodes, &
                                    coords, ierr, master_offsets, slave_offsets, dim)
        type(contact_search), intent(inout) :: search
        integer(c_int32_t), intent(in), target, contiguous :: master_types(:), slave_types(:)
        integer(c_int32_t), intent(in) :: master_nodes(:), slave_nodes(:)
        real(c_double), intent(in), target, contiguous :: coords(:, :)
        integer, intent(out) :: ierr
        integer(c_int32_t), intent(in), optional :: master_offsets(:), slave_offsets(:)
        integer, intent(in), optional :: dim
        character(kind=c_char, len=7), target :: mname = 'master' // c_null_char
        character(kind=c_char, len=6), target :: sname = 'slave' // c_null_char
        integer(c_int32_t), allocatable, target :: mconn(:), moff(:), sconn(:), soff(:)
        type(c_surface) :: m, s
        type(c_coordinates) :: x
        call surface_of(master_types, master_nodes, master_offsets, mname, mconn, moff, m, ierr)
        if (ierr /= CONTACT_OK) return
        call surface_of(slave_types, slave_nodes, slave_offsets, sname, sconn, soff, s, ierr)
        if (ierr /= CONTACT_OK) return
        call view_of(coords, dim, x, ierr)
        if (ierr /= CONTACT_OK) return
        call check_nodes('contact_set_surfaces', 'master_nodes', 'master', master_nodes, &
                         size(coords, 2), ierr, master_types, master_offsets)
        if (ierr /= CONTACT_OK) return
        call check_nodes('contact_set_surfaces', 'slave_nodes', 'slave', slave_nodes, &
                         size(coords, 2), ierr, slave_types, slave_offsets)
        if (ierr /= CONTACT_OK) return
        call took(c_set_surfaces(search%handle, m, s, x), ierr)
        if (ierr == CONTACT_OK) search%refused = .false.
    end subroutine

    !> As contact_set_surfaces with the slave given as 1-based node numbers (node-to-segment).
    subroutine contact_set_surfaces_nodes(search, master_types, master_nodes, slave_node_list, &
                                          coords, ierr, master_offsets, dim)
        type(contact_search), intent(inout) :: search
        integer(c_int32_t), intent(in), target, contiguous :: master_types(:)
        integer(c_int32_t), intent(in) :: master_nodes(:), slave_node_list(:)
        real(c_double), intent(in), target, contiguous :: coords(:, :)
        integer, intent(out) :: ierr
        integer(c_int32_t), intent(in), optional :: master_offsets(:)
        integer, intent(in), optional :: dim
        character(kind=c_char, len=7), target :: mname = 'master' // c_null_char
        integer(c_int32_t), allocatable, target :: mconn(:), moff(:), nodes0(:)
        type(c_surface) :: m
        type(c_coordinates) :: x
        type(c_ptr) :: p
        call surface_of(master_types, master_nodes, master_offsets, mname, mconn, moff, m, ierr)
        if (ierr /= CONTACT_OK) return
        call view_of(coords, dim, x, ierr)
        if (ierr /= CONTACT_OK) return
        call check_nodes('contact_set_surfaces_nodes', 'master_nodes', 'master', master_nodes, &
                         size(coords, 2), ierr, master_types, master_offsets)
        if (ierr /= CONTACT_OK) return
        call check_nodes('contact_set_surfaces_nodes', 'slave_node_list', 'slave', &
                         slave_node_list, size(coords, 2), ierr)
        if (ierr /= CONTACT_OK) return
        allocate (nodes0(size(slave_node_list)))
        nodes0 = slave_node_list - 1
        p = c_null_ptr
        if (size(nodes0) > 0) p = c_loc(nodes0)
        call took(c_set_surfaces_nodes(search%handle, m, p, int(size(nodes0), c_int32_t), x), ierr)
        if (ierr == CONTACT_OK) search%refused = .false.
    end subroutine

    !> Searches with the current coordinates coords(dim, n) (dim: default size(coords, 1)).
    !> CONTACT_ERROR_UPDATE_FAILED keeps the pairs of the last good update; stats%status says why.
    !> Coordinates refused before the search runs (CONTACT_ERROR_INVALID_ARGUMENT, e.g. coords(4, n))
    !> give stats%status = CONTACT_UPDATE_BAD_COORDINATE_VIEW.
    subroutine contact_update(search, coords, ierr, stats, dim)
        type(contact_search), intent(inout) :: search
        real(c_double), intent(in), target, contiguous :: coords(:, :)
        integer, intent(out) :: ierr
        type(contact_stats), intent(out), optional :: stats
        integer, intent(in), optional :: dim
        type(c_coordinates) :: x
        type(contact_stats) :: st
        call view_of(coords, dim, x, ierr)
        call run_update(search, x, ierr, st)
        if (present(stats)) stats = st
    end subroutine

    ! The C update unless ierr already refused the coordinates, then the stats in this module's
    ! numbering. The C API leaves its stats alone when it refuses its arguments: such a refusal
    ! (INVALID_ARGUMENT, NULL_POINTER) is a bad coordinate view; NULL_HANDLE and OUT_OF_ORDER
    ! keep the default NOT_SET_UP.
    subroutine run_update(search, x, ierr, st)
        type(contact_search), intent(inout) :: search
        type(c_coordinates), intent(in) :: x
        integer, intent(inout) :: ierr
        type(contact_stats), intent(out) :: st
        st%fault_node = -1
        st%fault_segment = -1
        search%refused = ierr /= CONTACT_OK
        if (ierr == CONTACT_OK) call took(c_update(search%handle, x, st), ierr)
        if (ierr == CONTACT_ERROR_INVALID_ARGUMENT .or. ierr == CONTACT_ERROR_NULL_POINTER) then
            st%status = CONTACT_UPDATE_BAD_COORDINATE_VIEW
        end if
        st%fault_node = st%fault_node + 1
        st%fault_segment = st%fault_segment + 1
    end subroutine

    !> As contact_update with separate arrays x(n), y(n) and, in 3D, z(n).
    subroutine contact_update_xyz(search, x, y, ierr, z, stats)
        type(contact_search), intent(inout) :: search
        real(c_double), intent(in), target, contiguous :: x(:), y(:)
        integer, intent(out) :: ierr
        real(c_double), intent(in), target, contiguous, optional :: z(:)
        type(contact_stats), intent(out), optional :: stats
        type(c_coordinates) :: c
        type(contact_stats) :: st
        c%layout = LAYOUT_SEPARATE
        c%dim = 2
        c%num_nodes = int(size(x), c_int32_t)
        c%stride = 1
        ierr = CONTACT_OK
        if (size(y) /= size(x)) then
            call refuse(ierr, CONTACT_ERROR_INVALID_ARGUMENT, 'contact_update_xyz: x and y ' // &
                        'differ in size')
        else if (present(z)) then
            if (size(z) /= size(x)) then
                call refuse(ierr, CONTACT_ERROR_INVALID_ARGUMENT, 'contact_update_xyz: x and z ' &
                            // 'differ in size')
            end if
        end if
        if (size(x) > 0 .and. ierr == CONTACT_OK) then
            c%x = c_loc(x)
            c%y = c_loc(y)
        end if
        if (present(z)) then
            c%dim = 3
            if (size(z) > 0 .and. ierr == CONTACT_OK) c%z = c_loc(z)
        end if
        call run_update(search, c, ierr, st)
        if (present(stats)) stats = st
    end subroutine

    !> The node number (1-based) the last update failed on (non-finite or out-of-range
    !> coordinates, the corner where a segment collapsed or folded), 0 after a successful update,
    !> another failure or set_surfaces.
    subroutine contact_fault_node(search, node, ierr)
        type(contact_search), intent(in) :: search
        integer, intent(out) :: node, ierr
        integer(c_int32_t) :: n
        n = -1
        call took(c_fault_node(search%handle, n), ierr)
        if (search%refused) n = -1
        node = int(n) + 1
    end subroutine

    !> The segment number (1-based) the last update found degenerate
    !> (CONTACT_UPDATE_DEGENERATE_SEGMENT), 0 after a successful update, another failure or
    !> set_surfaces; in_slave: whether it is a slave segment (else a master segment).
    subroutine contact_fault_segment(search, segment, ierr, in_slave)
        type(contact_search), intent(in) :: search
        integer, intent(out) :: segment, ierr
        logical, intent(out), optional :: in_slave
        integer(c_int32_t) :: n, slave
        n = -1
        slave = 0
        call took(c_fault_segment(search%handle, n, slave), ierr)
        if (search%refused) then
            n = -1
            slave = 0
        end if
        segment = int(n) + 1
        if (present(in_slave)) in_slave = slave == 1
    end subroutine

    !> Number of pairs of the last successful update.
    subroutine contact_pair_count(search, count, ierr)
        type(contact_search), intent(in) :: search
        integer, intent(out) :: count, ierr
        integer(c_int32_t) :: n
        n = 0
        call took(c_pair_count(search%handle, n), ierr)
        count = int(n)
    end subroutine

    !> Capture distance in length units (resolved at set_surfaces).
    subroutine contact_capture_distance(search, capture, ierr)
        type(contact_search), intent(in) :: search
        real(c_double), intent(out) :: capture
        integer, intent(out) :: ierr
        capture = 0
        call took(c_capture_distance(search%handle, capture), ierr)
    end subroutine

    ! Copies one integer field, 1-based unless it is the status.
    subroutine copy_index(search, field, out, ierr)
        type(contact_search), intent(in) :: search
        integer(c_int32_t), intent(in) :: field
        integer(c_int32_t), intent(inout), target, contiguous :: out(:)
        integer, intent(out) :: ierr
        integer :: n
        type(c_ptr) :: p
        p = c_null_ptr
        if (size(out) > 0) p = c_loc(out)
        call took(c_copy_index(search%handle, field, p, size(out, kind=c_int64_t)), ierr)
        if (ierr /= CONTACT_OK .or. field == FIELD_STATUS) return
        call contact_pair_count(search, n, ierr)
        out(1:n) = out(1:n) + 1
    end subroutine

    ! Copies one real field into the caller's array at p (total values).
    subroutine copy_real(search, field, p, total, ierr)
        type(contact_search), intent(in) :: search
        integer(c_int32_t), intent(in) :: field
        type(c_ptr), intent(in) :: p
        integer(c_int64_t), intent(in) :: total
        integer, intent(out) :: ierr
        call took(c_copy_real(search%handle, field, p, total), ierr)
    end subroutine

    !> Copies the pairs into the caller's arrays (each at least npairs long): slave node (node
    !> mode) or slave segment (segment mode) and master segment, 1-based; node mode also any of
    !> gap(npairs), distance(npairs), xi(2, npairs), point(3, npairs), normal(3, npairs),
    !> tangent1(3, npairs), tangent2(3, npairs), shape(9, npairs), status(npairs)
    !> (CONTACT_PROJECTION_*). Every array is checked, and a wrong one named, before any is
    !> written; so is the mode (a node-mode array asked of a segment search:
    !> CONTACT_ERROR_WRONG_MODE).
    subroutine contact_get_pairs(search, slave, master, ierr, gap, distance, xi, point, normal, &
                                 tangent1, tangent2, shape, status)
        type(contact_search), intent(in) :: search
        integer(c_int32_t), intent(inout), target, contiguous :: slave(:), master(:)
        integer, intent(out) :: ierr
        real(c_double), intent(inout), target, contiguous, optional :: gap(:), distance(:)
        real(c_double), intent(inout), target, contiguous, optional :: xi(:, :), point(:, :), &
            normal(:, :), tangent1(:, :), tangent2(:, :), shape(:, :)
        integer(c_int32_t), intent(inout), target, contiguous, optional :: status(:)
        integer :: n
        integer(c_int32_t) :: mode
        character(len=:), allocatable :: node_only
        call contact_pair_count(search, n, ierr)
        if (ierr /= CONTACT_OK) return
        mode = CONTACT_MODE_NODE_TO_SEGMENT
        call took(c_search_mode(search%handle, mode), ierr)
        if (ierr /= CONTACT_OK) return
        ! Segment mode has slave and master only; the first other array given is named.
        node_only = ''
        if (present(gap)) then
            node_only = 'gap'
        else if (present(distance)) then
            node_only = 'distance'
        else if (present(xi)) then
            node_only = 'xi'
        else if (present(point)) then
            node_only = 'point'
        else if (present(normal)) then
            node_only = 'normal'
        else if (present(tangent1)) then
            node_only = 'tangent1'
        else if (present(tangent2)) then
            node_only = 'tangent2'
        else if (present(shape)) then
            node_only = 'shape'
        else if (present(status)) then
            node_only = 'status'
        end if
        if (mode /= CONTACT_MODE_NODE_TO_SEGMENT .and. len(node_only) > 0) then
            call refuse(ierr, CONTACT_ERROR_WRONG_MODE, 'contact_get_pairs: ' // node_only // &
                        ' exists in node-to-segment mode only; this search runs ' // &
                        'segment-to-segment')
            return
        end if
        if (.not. fits('slave', size(slave), 1, 1)) return
        if (.not. fits('master', size(master), 1, 1)) return
        if (present(status)) then
            if (.not. fits('status', size(status), 1, 1)) return
        end if
        if (present(gap)) then
            if (.not. fits('gap', size(gap), 1, 1)) return
        end if
        if (present(distance)) then
            if (.not. fits('distance', size(distance), 1, 1)) return
        end if
        if (present(xi)) then
            if (.not. fits('xi', size(xi), size(xi, 1), 2)) return
        end if
        if (present(point)) then
            if (.not. fits('point', size(point), size(point, 1), 3)) return
        end if
        if (present(normal)) then
            if (.not. fits('normal', size(normal), size(normal, 1), 3)) return
        end if
        if (present(tangent1)) then
            if (.not. fits('tangent1', size(tangent1), size(tangent1, 1), 3)) return
        end if
        if (present(tangent2)) then
            if (.not. fits('tangent2', size(tangent2), size(tangent2, 1), 3)) return
        end if
        if (present(shape)) then
            if (.not. fits('shape', size(shape), size(shape, 1), 9)) return
        end if
        call copy_index(search, FIELD_SLAVE, slave, ierr)
        if (ierr /= CONTACT_OK) return
        call copy_index(search, FIELD_MASTER, master, ierr)
        if (ierr /= CONTACT_OK) return
        if (present(status)) then
            call copy_index(search, FIELD_STATUS, status, ierr)
            if (ierr /= CONTACT_OK) return
        end if
        if (present(gap)) then
            call copy_real(search, FIELD_GAP, at(gap), size(gap, kind=c_int64_t), ierr)
            if (ierr /= CONTACT_OK) return
        end if
        if (present(distance)) then
            call copy_real(search, FIELD_DISTANCE, at(distance), size(distance, kind=c_int64_t), &
                           ierr)
            if (ierr /= CONTACT_OK) return
        end if
        if (present(xi)) then
            call copy_real(search, FIELD_XI, at2(xi), size(xi, kind=c_int64_t), ierr)
            if (ierr /= CONTACT_OK) return
        end if
        if (present(point)) then
            call copy_real(search, FIELD_POINT, at2(point), size(point, kind=c_int64_t), ierr)
            if (ierr /= CONTACT_OK) return
        end if
        if (present(normal)) then
            call copy_real(search, FIELD_NORMAL, at2(normal), size(normal, kind=c_int64_t), ierr)
            if (ierr /= CONTACT_OK) return
        end if
        if (present(tangent1)) then
            call copy_real(search, FIELD_TANGENT1, at2(tangent1), &
                           size(tangent1, kind=c_int64_t), ierr)
            if (ierr /= CONTACT_OK) return
        end if
        if (present(tangent2)) then
            call copy_real(search, FIELD_TANGENT2, at2(tangent2), &
                           size(tangent2, kind=c_int64_t), ierr)
            if (ierr /= CONTACT_OK) return
        end if
        if (present(shape)) then
            call copy_real(search, FIELD_SHAPE, at2(shape), size(shape, kind=c_int64_t), ierr)
        end if
    contains
        ! Whether an argument of `total` values in `rows` rows holds the n pairs of `width` values
        ! each; if not, the refusal names it.
        logical function fits(what, total, rows, width)
            character(len=*), intent(in) :: what
            integer, intent(in) :: total, rows, width
            fits = .false.
            if (rows /= width) then
                call refuse(ierr, CONTACT_ERROR_INVALID_ARGUMENT, 'contact_get_pairs: ' // what // &
                            ' must have ' // itoa(width) // ' rows (' // what // '(' // &
                            itoa(width) // ', npairs)), it has ' // itoa(rows))
            else if (total < width * n) then
                call refuse(ierr, CONTACT_ERROR_BUFFER_TOO_SMALL, 'contact_get_pairs: ' // what // &
                            ' holds ' // itoa(total / width) // ' pairs, ' // itoa(n) // &
                            ' needed')
            else
                fits = .true.
            end if
        end function
        ! Address of an array's first value (null when empty).
        function at(v) result(p)
            real(c_double), intent(in), target, contiguous :: v(:)
            type(c_ptr) :: p
            p = c_null_ptr
            if (size(v) > 0) p = c_loc(v)
        end function
        function at2(v) result(p)
            real(c_double), intent(in), target, contiguous :: v(:, :)
            type(c_ptr) :: p
            p = c_null_ptr
            if (size(v) > 0) p = c_loc(v)
        end function
    end subroutine

    !> Rows of the CSR by slave: the nodes of the coordinates (node mode) or slave segments.
    subroutine contact_csr_rows(search, rows, ierr)
        type(contact_search), intent(in) :: search
        integer, intent(out) :: rows, ierr
        integer(c_int32_t) :: n
        n = 0
        call took(c_csr_rows(search%handle, n), ierr)
        rows = int(n)
    end subroutine

    !> The pairs as CSR by slave: row r's pairs are the pair numbers offsets(r) .. offsets(r+1)-1
    !> (1-based), offsets(rows + 1); entries past rows + 1 are left as they were.
    subroutine contact_get_csr(search, offsets, ierr)
        type(contact_search), intent(in) :: search
        integer(c_int32_t), intent(inout), target, contiguous :: offsets(:)
        integer, intent(out) :: ierr
        type(c_ptr) :: p
        integer(c_int32_t) :: rows
        p = c_null_ptr
        if (size(offsets) > 0) p = c_loc(offsets)
        call took(c_pairs_csr(search%handle, p, size(offsets, kind=c_int64_t)), ierr)
        if (ierr /= CONTACT_OK) return
        rows = 0
        call took(c_csr_rows(search%handle, rows), ierr)
        if (ierr /= CONTACT_OK) return
        offsets(1:rows + 1) = offsets(1:rows + 1) + 1
    end subroutine

    !> Segment mode: clips the pairs of the last update at coords (those of that update).
    subroutine contact_compute_overlaps(search, coords, count, ierr, dim)
        type(contact_search), intent(inout) :: search
        real(c_double), intent(in), target, contiguous :: coords(:, :)
        integer, intent(out) :: count, ierr
        integer, intent(in), optional :: dim
        type(c_coordinates) :: x
        integer(c_int32_t) :: n
        count = 0
        call view_of(coords, dim, x, ierr)
        if (ierr /= CONTACT_OK) return
        n = 0
        call took(c_compute_overlaps(search%handle, x, n), ierr)
        count = int(n)
    end subroutine

    !> The overlaps of contact_compute_overlaps: slave and master segment (1-based), the overlap's
    !> area, its part in contact (gap <= capture) and its penetrating part (lengths in 2D), and over
    !> the part in contact centroid(3, count) and gap range (NaN where none is in contact); arrays at
    !> least count long.
    subroutine contact_get_overlaps(search, slave, master, ierr, overlap_area, capture_area, &
                                    penetration_area, centroid, gap_min, gap_max)
        type(contact_search), intent(in) :: search
        integer(c_int32_t), intent(out) :: slave(:), master(:)
        integer, intent(out) :: ierr
        real(c_double), intent(out), optional :: overlap_area(:), capture_area(:)
        real(c_double), intent(out), optional :: penetration_area(:), centroid(:, :)
        real(c_double), intent(out), optional :: gap_min(:), gap_max(:)
        type(c_overlaps_view) :: v
        integer(c_int32_t), pointer :: pi(:)
        real(c_double), pointer :: pr(:), pc(:, :)
        integer :: n
        character(len=:), allocatable :: short
        call took(c_get_overlaps(search%handle, v), ierr)
        if (ierr /= CONTACT_OK) return
        n = int(v%count)
        ! Every array given is checked before anything is written: the first too short is named.
        short = ''
        if (size(slave) < n) then
            short = 'slave'
        else if (size(master) < n) then
            short = 'master'
        else if (too_short(overlap_area)) then
            short = 'overlap_area'
        else if (too_short(capture_area)) then
            short = 'capture_area'
        else if (too_short(penetration_area)) then
            short = 'penetration_area'
        else if (too_short(gap_min)) then
            short = 'gap_min'
        else if (too_short(gap_max)) then
            short = 'gap_max'
        else if (present(centroid)) then
            if (size(centroid, 1) < 3 .or. size(centroid, 2) < n) short = 'centroid(3, :)'
        end if
        if (len(short) > 0) then
            call refuse(ierr, CONTACT_ERROR_BUFFER_TOO_SMALL, 'contact_get_overlaps: ' // &
                        itoa(n) // ' overlaps, ' // short // ' holds fewer')
            return
        end if
        if (n == 0) return
        call c_f_pointer(v%slave, pi, [n])
        slave(1:n) = pi + 1
        call c_f_pointer(v%master, pi, [n])
        master(1:n) = pi + 1
        if (present(overlap_area)) then
            call c_f_pointer(v%overlap_area, pr, [n])
            overlap_area(1:n) = pr
        end if
        if (present(capture_area)) then
            call c_f_pointer(v%capture_area, pr, [n])
            capture_area(1:n) = pr
        end if
        if (present(penetration_area)) then
            call c_f_pointer(v%penetration_area, pr, [n])
            penetration_area(1:n) = pr
        end if
        if (present(centroid)) then
            call c_f_pointer(v%centroid, pc, [3, n])
            centroid(1:3, 1:n) = pc
        end if
        if (present(gap_min)) then
            call c_f_pointer(v%gap_min, pr, [n])
            gap_min(1:n) = pr
        end if
        if (present(gap_max)) then
            call c_f_pointer(v%gap_max, pr, [n])
            gap_max(1:n) = pr
        end if
    contains
        logical function too_short(a)
            real(c_double), intent(in), optional :: a(:)
            too_short = .false.
            if (present(a)) too_short = size(a) < n
        end function
    end subroutine

    ! ---- Models ----

    !> Reads an Abaqus/CalculiX .inp, Gmsh .msh or Exodus II .e/.exo/.ex2 file (the C API's
    !> contact_model_read); a bad file gives CONTACT_ERROR_FILE, "<path>:<line>: ...".
    subroutine contact_model_read(model, path, ierr)
        type(contact_model), intent(inout) :: model
        character(len=*), intent(in) :: path
        integer, intent(out) :: ierr
        type(c_ptr) :: h
        call took(c_model_read(trim(path) // c_null_char, h), ierr)
        if (ierr == CONTACT_OK) then
            call contact_model_destroy(model)
            model%handle = h
        end if
    end subroutine

    subroutine contact_model_destroy(model)
        type(contact_model), intent(inout) :: model
        call c_model_destroy(model%handle)
        model%handle = c_null_ptr
    end subroutine

    subroutine contact_model_num_nodes(model, count, ierr)
        type(contact_model), intent(in) :: model
        integer, intent(out) :: count, ierr
        integer(c_int32_t) :: n
        n = 0
        call took(c_model_num_nodes(model%handle, n), ierr)
        count = int(n)
    end subroutine

    !> The model's coordinates, coords(3, n) (z = 0 in 2D models; a 2D search takes dim=2).
    subroutine contact_model_coordinates(model, coords, ierr)
        type(contact_model), intent(in) :: model
        real(c_double), allocatable, intent(out) :: coords(:, :)
        integer, intent(out) :: ierr
        real(c_double), pointer :: p(:, :)
        type(c_ptr) :: cp
        integer :: n
        call contact_model_num_nodes(model, n, ierr)
        if (ierr /= CONTACT_OK) return
        call took(c_model_coordinates(model%handle, cp), ierr)
        if (ierr /= CONTACT_OK) return
        allocate (coords(3, n))
        if (n == 0) return
        call c_f_pointer(cp, p, [3, n])
        coords = p
    end subroutine

    !> Node ids as in the file (ids(k) is the id of node k).
    subroutine contact_model_node_ids(model, ids, ierr)
        type(contact_model), intent(in) :: model
        integer(c_int64_t), allocatable, intent(out) :: ids(:)
        integer, intent(out) :: ierr
        integer(c_int64_t), pointer :: p(:)
        type(c_ptr) :: cp
        integer :: n
        call contact_model_num_nodes(model, n, ierr)
        if (ierr /= CONTACT_OK) return
        call took(c_model_node_ids(model%handle, cp), ierr)
        if (ierr /= CONTACT_OK) return
        allocate (ids(n))
        if (n == 0) return
        call c_f_pointer(cp, p, [n])
        ids = p
    end subroutine

    subroutine contact_model_surface_count(model, count, ierr)
        type(contact_model), intent(in) :: model
        integer, intent(out) :: count, ierr
        integer(c_int32_t) :: n
        n = 0
        call took(c_model_surface_count(model%handle, n), ierr)
        count = int(n)
    end subroutine

    !> Name of surface number i (1-based).
    subroutine contact_model_surface_name(model, i, name, ierr)
        type(contact_model), intent(in) :: model
        integer, intent(in) :: i
        character(len=:), allocatable, intent(out) :: name
        integer, intent(out) :: ierr
        type(c_ptr) :: p
        integer :: n
        name = ''
        call contact_model_surface_count(model, n, ierr)
        if (ierr /= CONTACT_OK) return
        if (i < 1 .or. i > n) then
            call refuse(ierr, CONTACT_ERROR_NOT_FOUND, 'contact_model_surface_name: surface ' // &
                        'number ' // itoa(i) // ' is out of range (1 .. ' // itoa(n) // ')')
            return
        end if
        call took(c_model_surface_name(model%handle, int(i - 1, c_int32_t), p), ierr)
        if (ierr == CONTACT_OK) name = from_c(p)
    end subroutine

    subroutine contact_model_interface_count(model, count, ierr)
        type(contact_model), intent(in) :: model
        integer, intent(out) :: count, ierr
        integer(c_int32_t) :: n
        n = 0
        call took(c_model_interface_count(model%handle, n), ierr)
        count = int(n)
    end subroutine

    !> Interface number i (1-based; each *CONTACT PAIR / *TIE data line, each search of general
    !> contact): its surfaces and mode; self_contact: search it with contact_create's
    !> self_contact=.true. (general contact, whose slave may be part of its master, or one surface
    !> as slave and master); kind: CONTACT_INTERFACE_CONTACT_PAIR, _TIE or _GENERAL_CONTACT;
    !> name: the interaction or tie name ('' if none).
    subroutine contact_model_interface(model, i, slave, master, mode, ierr, self_contact, kind, &
                                       name)
        type(contact_model), intent(in) :: model
        integer, intent(in) :: i
        character(len=:), allocatable, intent(out) :: slave, master
        integer, intent(out) :: mode, ierr
        logical, intent(out), optional :: self_contact
        integer, intent(out), optional :: kind
        character(len=:), allocatable, intent(out), optional :: name
        type(c_interface_info) :: info
        integer :: n
        slave = ''
        master = ''
        mode = CONTACT_MODE_NODE_TO_SEGMENT
        if (present(self_contact)) self_contact = .false.
        if (present(kind)) kind = CONTACT_INTERFACE_CONTACT_PAIR
        if (present(name)) name = ''
        call contact_model_interface_count(model, n, ierr)
        if (ierr /= CONTACT_OK) return
        if (i < 1 .or. i > n) then
            call refuse(ierr, CONTACT_ERROR_NOT_FOUND, 'contact_model_interface: interface ' // &
                        'number ' // itoa(i) // ' is out of range (1 .. ' // itoa(n) // ')')
            return
        end if
        call took(c_model_interface(model%handle, int(i - 1, c_int32_t), info), ierr)
        if (ierr /= CONTACT_OK) return
        slave = from_c(info%slave)
        master = from_c(info%master)
        mode = int(info%mode)
        if (present(self_contact)) self_contact = info%self_contact == 1
        if (present(kind)) kind = int(info%kind)
        if (present(name)) name = from_c(info%name)
    end subroutine

    ! The surface `name` from the C API: where a node surface and an element surface share the
    ! name, the node surface when nodes, else (also when nodes is absent) the element surface.
    function surface_info(model, name, nodes, info) result(rc)
        type(contact_model), intent(in) :: model
        character(len=*), intent(in) :: name
        logical, intent(in), optional :: nodes
        type(c_surface_info), intent(out) :: info
        integer(c_int) :: rc
        if (present(nodes)) then
            rc = c_model_surface_kind(model%handle, trim(name) // c_null_char, &
                                      merge(1_c_int32_t, 0_c_int32_t, nodes), info)
        else
            rc = c_model_surface(model%handle, trim(name) // c_null_char, info)
        end if
    end function

    !> Sizes of a surface, to allocate the arrays of contact_model_surface (want_node_surface= as
    !> there); node_surface: whether it is a node surface.
    subroutine contact_model_surface_sizes(model, name, num_segments, connectivity_size, ierr, &
                                           dim, node_surface, num_nodes, want_node_surface)
        type(contact_model), intent(inout) :: model
        character(len=*), intent(in) :: name
        integer, intent(out) :: num_segments, connectivity_size, ierr
        integer, intent(out), optional :: dim, num_nodes
        logical, intent(out), optional :: node_surface
        logical, intent(in), optional :: want_node_surface
        type(c_surface_info) :: info
        num_segments = 0
        connectivity_size = 0
        call took(surface_info(model, name, want_node_surface, info), ierr)
        if (ierr /= CONTACT_OK) return
        num_segments = int(info%segments%num_segments)
        connectivity_size = int(info%segments%connectivity_size)
        if (present(dim)) dim = int(info%dim)
        if (present(node_surface)) node_surface = info%node_surface == 1
        if (present(num_nodes)) num_nodes = int(info%num_nodes)
    end subroutine

    !> A surface of the model: segment types, 1-based node numbers, 1-based CSR offsets
    !> (num_segments + 1), and per segment the element id and face as in the file; a node
    !> surface (TYPE=NODE) gives its 1-based node numbers in slave_nodes. Where a node surface
    !> and an element surface share the name (CalculiX), the element surface, or the node surface
    !> with want_node_surface=.true.: an interface's slave is the surface its search takes with
    !> want_node_surface=(mode == CONTACT_MODE_NODE_TO_SEGMENT), as the contact-search tool's.
    subroutine contact_model_surface(model, name, types, nodes, offsets, ierr, element_ids, faces, &
                                     slave_nodes, want_node_surface)
        type(contact_model), intent(inout) :: model
        character(len=*), intent(in) :: name
        integer(c_int32_t), allocatable, intent(out) :: types(:), nodes(:), offsets(:)
        integer, intent(out) :: ierr
        integer(c_int64_t), allocatable, intent(out), optional :: element_ids(:)
        integer(c_int32_t), allocatable, intent(out), optional :: faces(:), slave_nodes(:)
        logical, intent(in), optional :: want_node_surface
        type(c_surface_info) :: info
        integer(c_int32_t), pointer :: pi(:)
        integer(c_int64_t), pointer :: pl(:)
        integer :: n, nc, nn
        call took(surface_info(model, name, want_node_surface, info), ierr)
        if (ierr /= CONTACT_OK) return
        n = int(info%segments%num_segments)
        nc = int(info%segments%connectivity_size)
        nn = int(info%num_nodes)
        allocate (types(n), nodes(nc), offsets(n + 1))
        offsets = 1
        if (n > 0) then
            call c_f_pointer(info%segments%types, pi, [n])
            types = pi
            call c_f_pointer(info%segments%connectivity, pi, [nc])
            nodes = pi + 1
            call c_f_pointer(info%segments%offsets, pi, [n + 1])
            offsets = pi + 1
        end if
        if (present(element_ids)) then
            allocate (element_ids(n))
            if (n > 0) then
                call c_f_pointer(info%element_ids, pl, [n])
                element_ids = pl
            end if
        end if
        if (present(faces)) then
            allocate (faces(n))
            if (n > 0) then
                call c_f_pointer(info%faces, pi, [n])
                faces = pi
            end if
        end if
        if (present(slave_nodes)) then
            allocate (slave_nodes(nn))
            if (nn > 0) then
                call c_f_pointer(info%nodes, pi, [nn])
                slave_nodes = pi + 1
            end if
        end if
    end subroutine

    ! Decimal text of an integer.
    function itoa(i) result(s)
        integer, intent(in) :: i
        character(len=:), allocatable :: s
        character(len=24) :: buf
        write (buf, '(I0)') i
        s = trim(buf)
    end function

end module contact
