! SPDX-License-Identifier: MIT
! The Fortran module on a scene with a known answer (a flat sheet at gap 0.125 over a flat plate:
! every sheet node paired, the master segment and the gap known), in every coordinate layout, and
! the module's own checks: 1-based numbers in and out, array shapes, errors and their messages.
! Usage: test_fortran_api MODEL.inp SAME_NAME_SURFACES.inp
program test_fortran_api
    use, intrinsic :: iso_c_binding, only: c_double, c_int32_t, c_int64_t
    use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
    use contact
    implicit none
    integer, parameter :: nm = 4, ns = 5  ! plate nm x nm Quad4 on [0, nm]^2, sheet ns x ns
    real(c_double), parameter :: g = 0.125_c_double, a0 = 0.3_c_double, h = 0.67_c_double
    integer :: failures = 0, checks = 0, ierr, n, i, j, k, rows, np
    real(c_double), allocatable, target :: coords(:, :), records(:, :), x(:), y(:), z(:)
    real(c_double), allocatable :: gap(:), gap2(:), xi(:, :), bad_xi(:, :), normal(:, :), area(:)
    integer(c_int32_t), allocatable :: mt(:), mn(:), st(:), sn(:), slave(:), master(:), off(:)
    integer(c_int32_t), allocatable :: bad(:), sm(:), long_off(:)
    real(c_double), allocatable :: few(:), cen(:, :)
    real(c_double), allocatable, target :: wide(:, :)
    integer(c_int32_t), allocatable :: flip(:)
    type(contact_search) :: s, t
    type(contact_model) :: model
    type(contact_stats) :: stats
    character(len=1024) :: path
    character(len=:), allocatable :: name, sname, mname
    logical :: flag

    call get_command_argument(1, path)
    call make_scene()
    np = (ns + 1) * (ns + 1)

    ! Out of order, and a message to say so.
    call contact_create(s, ierr, capture=0.5_c_double, capture_relative=.false.)
    call expect(ierr == CONTACT_OK, 'create')
    call contact_update(s, coords, ierr)
    call expect(ierr == CONTACT_ERROR_OUT_OF_ORDER, 'update before set_surfaces')
    call expect(index(contact_last_error(), 'set_surfaces was not called') > 0, 'message')
    call expect(index(contact_error(s), 'contact_search_update') > 0, 'handle message')
    call contact_pair_count(s, n, ierr)
    call expect(ierr == CONTACT_ERROR_OUT_OF_ORDER, 'pair count before set_surfaces')

    ! 1-based connectivity: node number 0 is out of range, and so named (with its segment).
    bad = mn
    bad(3) = 0
    call contact_set_surfaces(s, mt, bad, st, sn, coords, ierr)
    call expect(ierr == CONTACT_ERROR_INVALID_INPUT, 'node number 0')
    call expect(index(contact_last_error(), 'contact_set_surfaces: master_nodes(3) = 0, in ' // &
                      'master segment 1, is not a node number (1 .. 61: the columns of coords)') &
                > 0, 'message names the node and segment 1-based')
    bad = sn
    bad(6) = size(coords, 2) + 1
    call contact_set_surfaces(s, mt, mn, st, bad, coords, ierr, &
                              slave_offsets=[(int(1 + 4 * k, c_int32_t), k = 0, ns * ns)])
    call expect(ierr == CONTACT_ERROR_INVALID_INPUT .and. index(contact_last_error(), &
                'slave_nodes(6) = 62, in slave segment 2, is not a node number') > 0, &
                'node n + 1 named with its segment from the offsets')
    call contact_set_surfaces_nodes(s, mt, mn, [1_c_int32_t, 0_c_int32_t], coords, ierr)
    call expect(ierr == CONTACT_ERROR_INVALID_INPUT .and. index(contact_last_error(), &
                'slave_node_list(2) = 0 is not a node number') > 0, 'slave node number 0')
    call contact_set_surfaces(s, mt, mn, st, sn, coords, ierr, &
                              master_offsets=[(int(4 * k, c_int32_t), k = 0, nm * nm)])
    call expect(ierr == CONTACT_ERROR_INVALID_ARGUMENT .and. &
                index(contact_last_error(), 'offsets(1) is 0, not 1') > 0, '0-based offsets')
    call contact_set_surfaces(s, mt, mn, st, sn, coords, ierr, master_offsets=[1_c_int32_t, 5_c_int32_t])
    call expect(ierr == CONTACT_ERROR_INVALID_ARGUMENT, 'offsets size')
    call expect(index(contact_last_error(), 'offsets has 2 entries') > 0, 'offsets message')

    ! The known answer, read through every layout.
    call contact_set_surfaces(s, mt, mn, st, sn, coords, ierr)
    call expect(ierr == CONTACT_OK, 'set_surfaces')
    call contact_update(s, coords, ierr, stats=stats)
    call expect(ierr == CONTACT_OK .and. stats%pairs == np, 'update')
    call expect(stats%master_boxes == nm**2, 'every master box made')
    call contact_update(s, coords, ierr, stats=stats)  ! the same coordinates: the list is reused
    call expect(ierr == CONTACT_OK .and. stats%rebuilt == 0 .and. stats%master_boxes == 0, &
                'a resting master keeps its boxes')
    call contact_pair_count(s, n, ierr)
    call expect(n == np, 'pair count')
    allocate (slave(n), master(n), gap(n), gap2(n), xi(2, n), normal(3, n), bad_xi(3, n))
    call contact_get_pairs(s, slave, master, ierr, gap=gap, xi=xi, normal=normal)
    call expect(ierr == CONTACT_OK, 'get_pairs')
    do k = 1, n
        i = mod(k - 1, ns + 1)
        j = (k - 1) / (ns + 1)
        call expect(slave(k) == (nm + 1)**2 + k, 'slave numbers are 1-based node numbers')
        call expect(master(k) == 1 + floor(a0 + h * j) * nm + floor(a0 + h * i), &
                    'master numbers are 1-based segment numbers')
        call expect(abs(gap(k) - g) <= 1e-15_c_double .and. abs(normal(3, k) - 1) <= 0, 'gap, normal')
        call expect(abs(xi(1, k) - (2 * (a0 + h * i - floor(a0 + h * i)) - 1)) <= 1e-12_c_double, 'xi')
    end do
    call contact_get_pairs(s, slave, master, ierr, xi=bad_xi)
    call expect(ierr == CONTACT_ERROR_INVALID_ARGUMENT, 'xi(3, n)')
    call expect(index(contact_last_error(), 'xi must have 2 rows') > 0, 'xi message')
    call contact_get_pairs(s, slave(1:n - 1), master, ierr)
    call expect(ierr == CONTACT_ERROR_BUFFER_TOO_SMALL, 'short slave array')
    ! Every array is checked, and a short one named, before any is written.
    slave = -1
    call contact_get_pairs(s, slave, master, ierr, gap=gap2(1:n - 1))
    call expect(ierr == CONTACT_ERROR_BUFFER_TOO_SMALL .and. &
                index(contact_last_error(), 'gap holds') > 0 .and. all(slave == -1), &
                'short gap refused, named, nothing written')
    call contact_get_pairs(s, slave, master, ierr)
    call contact_csr_rows(s, rows, ierr)
    call expect(rows == size(coords, 2), 'csr rows')
    allocate (off(rows + 1))
    call contact_get_csr(s, off, ierr)
    call expect(ierr == CONTACT_OK .and. off(1) == 1 .and. off(rows + 1) == n + 1, 'csr 1-based')
    call expect(off(slave(1) + 1) - off(slave(1)) == 1, 'csr row of a paired node')
    ! A longer array: the entries past rows + 1 are the caller's and stay as they were.
    allocate (long_off(rows + 3))
    long_off = -7
    call contact_get_csr(s, long_off, ierr)
    call expect(ierr == CONTACT_OK .and. all(long_off(1:rows + 1) == off) .and. &
                all(long_off(rows + 2:) == -7), 'csr leaves the entries past rows + 1')

    call contact_update_xyz(s, x, y, ierr, z=z)
    call expect(ierr == CONTACT_OK, 'update_xyz')
    call contact_get_pairs(s, slave, master, ierr, gap=gap2)
    call expect(all(gap2 == gap), 'separate layout gives the same gaps')
    call contact_update(s, records, ierr, dim=3)
    call expect(ierr == CONTACT_OK, 'update records')
    call contact_get_pairs(s, slave, master, ierr, gap=gap2)
    call expect(all(gap2 == gap), 'strided records give the same gaps')
    call contact_update_xyz(s, x(1:5), y, ierr, z=z)
    call expect(ierr == CONTACT_ERROR_INVALID_ARGUMENT, 'x and y sizes')
    call contact_update(s, coords(:, 1:10), ierr)
    call expect(ierr == CONTACT_ERROR_UPDATE_FAILED, 'wrong node count')
    ! Node number 3 beyond the float boxes: the library's message names it 0-based, node 2.
    coords(2, 3) = 1.0e33_c_double
    call contact_update(s, coords, ierr)
    call expect(ierr == CONTACT_ERROR_UPDATE_FAILED, 'out of range')
    call expect(index(contact_last_error(), 'out of range (node 2 at (2, 1e+33, 0))') > 0, &
                'the node named')
    call contact_fault_node(s, n, ierr)
    call expect(ierr == CONTACT_OK .and. n == 3, 'fault node 3')
    coords(2, 3) = 0.0_c_double
    call contact_update(s, coords, ierr)
    call contact_fault_node(s, n, ierr)
    call expect(ierr == CONTACT_OK .and. n == 0, 'no fault node after a good update')
    call contact_pair_count(s, n, ierr)
    call expect(n == np, 'pairs kept after a failed update')
    call contact_update(s, coords, ierr, dim=4)
    call expect(ierr == CONTACT_ERROR_INVALID_ARGUMENT, 'dim 4')

    ! The orientation verdict and its counts; no fault after a good update.
    call contact_update(s, coords, ierr, stats=stats)
    call expect(ierr == CONTACT_OK .and. stats%orientation == CONTACT_ORIENTATION_CONSISTENT .and. &
                stats%orientation_opposed == np .and. stats%orientation_aligned == 0, &
                'consistent surfaces')
    call expect(stats%fault_node == 0 .and. stats%fault_segment == 0, 'no fault')
    ! A fault, then coordinates refused before the search: no fault node any more, and the
    ! status says why (not NOT_SET_UP).
    coords(2, 5) = ieee_value(1.0_c_double, ieee_quiet_nan)
    call contact_update(s, coords, ierr, stats=stats)
    call expect(ierr == CONTACT_ERROR_UPDATE_FAILED .and. stats%fault_node == 5, 'NaN at node 5')
    allocate (wide(4, size(coords, 2)))
    wide = 0
    wide(1:3, :) = coords
    call contact_update(s, wide, ierr, stats=stats)
    call expect(ierr == CONTACT_ERROR_INVALID_ARGUMENT .and. &
                stats%status == CONTACT_UPDATE_BAD_COORDINATE_VIEW, 'coords(4, n): a bad view')
    call contact_fault_node(s, n, ierr)
    call expect(ierr == CONTACT_OK .and. n == 0, 'coords(4, n) forgets the fault node')
    coords(2, 5) = 0
    ! Master segment 1 collapses (its node 2 onto its node 1): named 1-based, as the master's.
    coords(:, 2) = coords(:, 1)
    call contact_update(s, coords, ierr, stats=stats)
    call expect(ierr == CONTACT_ERROR_UPDATE_FAILED .and. &
                stats%status == CONTACT_UPDATE_DEGENERATE_SEGMENT .and. &
                stats%fault_segment == 1 .and. stats%fault_in_slave == 0, 'master segment 1')
    call contact_fault_segment(s, k, ierr, in_slave=flag)
    call expect(ierr == CONTACT_OK .and. k == 1 .and. .not. flag, 'fault segment 1 of the master')
    call contact_update_xyz(s, x(1:5), y, ierr, z=z, stats=stats)
    call contact_fault_segment(s, k, ierr, in_slave=flag)
    call expect(k == 0 .and. stats%status == CONTACT_UPDATE_BAD_COORDINATE_VIEW, &
                'update_xyz refused: no fault segment')
    coords(:, 2) = [1, 0, 0]
    ! The master given inside-out: normals aligned, the sheet behind it.
    flip = mn
    do k = 0, nm * nm - 1
        flip(4 * k + 2) = mn(4 * k + 4)
        flip(4 * k + 4) = mn(4 * k + 2)
    end do
    call contact_set_surfaces(s, mt, flip, st, sn, coords, ierr)
    call contact_update(s, coords, ierr, stats=stats)
    call expect(ierr == CONTACT_OK .and. &
                stats%orientation == CONTACT_ORIENTATION_MASTER_INSIDE_OUT .and. &
                stats%orientation_aligned == np .and. stats%orientation_behind == np .and. &
                stats%orientation_opposed == 0 .and. stats%orientation_in_front == 0, &
                'master inside-out')
    call contact_set_surfaces(s, mt, mn, st, sn, coords, ierr)
    call contact_update(s, coords, ierr)

    ! Slave as node numbers (and warm starts off: the same pairs on a flat master).
    call contact_create(t, ierr, capture=0.5_c_double, capture_relative=.false., &
                        warm_start=.false.)
    call expect(ierr == CONTACT_OK, 'create with warm_start=.false.')
    sm = [(int((nm + 1)**2 + k, c_int32_t), k = 1, np)]
    call contact_set_surfaces_nodes(t, mt, mn, sm, coords, ierr)
    call expect(ierr == CONTACT_OK, 'set_surfaces_nodes')
    call contact_update(t, coords, ierr)
    call contact_get_pairs(t, slave, master, ierr, gap=gap2)
    call expect(ierr == CONTACT_OK .and. all(gap2 == gap), 'node list gives the same pairs')
    call contact_destroy(t)

    ! Segment mode: the overlaps cover the sheet.
    call contact_create(t, ierr, capture=0.25_c_double, capture_relative=.false., &
                        mode=CONTACT_MODE_SEGMENT_TO_SEGMENT)
    call contact_set_surfaces(t, mt, mn, st, sn, coords, ierr)
    call contact_update(t, coords, ierr)
    call contact_pair_count(t, n, ierr)
    call expect(ierr == CONTACT_OK .and. n >= ns * ns, 'segment pairs')
    deallocate (slave, master, gap)
    allocate (slave(n), master(n), gap(n), area(n))
    ! A node-mode array asked of a segment search: refused before any array is written.
    slave = -1
    master = -1
    call contact_get_pairs(t, slave, master, ierr, gap=gap)
    call expect(ierr == CONTACT_ERROR_WRONG_MODE .and. &
                index(contact_last_error(), 'gap exists in node-to-segment mode only') > 0, &
                'gap in segment mode')
    call expect(all(slave == -1) .and. all(master == -1), 'nothing written for the wrong mode')
    ! Slave segment 1 collapses (its node 2 onto its node 1): named 1-based, as the slave's.
    coords(:, sn(2)) = coords(:, sn(1))
    call contact_update(t, coords, ierr, stats=stats)
    call expect(ierr == CONTACT_ERROR_UPDATE_FAILED .and. stats%fault_segment == 1 .and. &
                stats%fault_in_slave == 1, 'slave segment 1')
    call contact_fault_segment(t, k, ierr, in_slave=flag)
    call expect(ierr == CONTACT_OK .and. k == 1 .and. flag, 'fault segment 1 of the slave')
    coords(:, sn(2)) = coords(:, sn(1)) + [0.0_c_double, h, 0.0_c_double]
    call contact_update(t, coords, ierr)
    call expect(ierr == CONTACT_OK, 'sheet restored')
    call contact_get_pairs(t, slave, master, ierr)
    call expect(ierr == CONTACT_OK .and. minval(slave) == 1 .and. maxval(slave) == ns * ns, &
                'slave segment numbers 1-based')
    call contact_compute_overlaps(t, coords, k, ierr)
    call expect(ierr == CONTACT_OK .and. k > 0, 'overlaps')
    call contact_get_overlaps(t, slave, master, ierr, overlap_area=area)
    call expect(abs(sum(area(1:k)) - (ns * h)**2) <= 1e-12_c_double, 'overlap area = sheet area')
    call contact_get_overlaps(t, slave, master, ierr, capture_area=area)
    call expect(abs(sum(area(1:k)) - (ns * h)**2) <= 1e-12_c_double, 'all of it in contact')
    ! An optional array shorter than the overlaps is refused, named, and nothing is written.
    area = -1.0_c_double
    allocate (few(k - 1), cen(2, k))
    call contact_get_overlaps(t, slave, master, ierr, overlap_area=area, gap_max=few)
    call expect(ierr == CONTACT_ERROR_BUFFER_TOO_SMALL .and. &
                index(contact_last_error(), 'gap_max holds fewer') > 0 .and. all(area == -1), &
                'short gap_max refused')
    call contact_get_overlaps(t, slave, master, ierr, centroid=cen)
    call expect(ierr == CONTACT_ERROR_BUFFER_TOO_SMALL .and. &
                index(contact_last_error(), 'centroid(3, :) holds fewer') > 0, &
                'centroid with 2 rows refused')
    deallocate (few, cen)
    call contact_destroy(t)
    call contact_destroy(s)

    ! t = s copies no search: t is left empty, so destroying s leaves nothing dangling in t.
    call contact_create(s, ierr)
    t = s
    call contact_destroy(s)
    call contact_set_surfaces(t, mt, mn, st, sn, coords, ierr)
    call expect(ierr == CONTACT_ERROR_NULL_HANDLE, 'a copied search is empty')

    ! Models.
    call contact_model_read(model, '/nonexistent/model.inp', ierr)
    call expect(ierr == CONTACT_ERROR_FILE, 'missing file')
    call expect(index(contact_last_error(), '/nonexistent/model.inp') > 0, 'file message')
    call contact_model_read(model, trim(path), ierr)
    call expect(ierr == CONTACT_OK, 'read model')
    call contact_model_surface_count(model, n, ierr)
    call expect(n == 2, 'surface count')
    call contact_model_surface_name(model, 1, name, ierr)
    call expect(ierr == CONTACT_OK .and. len(name) > 0, 'surface 1 has a name')
    call contact_model_surface_name(model, 3, name, ierr)
    call expect(ierr == CONTACT_ERROR_NOT_FOUND, 'surface 3 of 2')
    call contact_model_surface_name(model, 0, name, ierr)
    call expect(ierr == CONTACT_ERROR_NOT_FOUND .and. index(contact_last_error(), &
                'surface number 0 is out of range (1 .. 2)') > 0, 'surface 0, named 1-based')
    call contact_model_interface_count(model, n, ierr)
    call contact_model_interface(model, 0, sname, mname, k, ierr)
    call expect(ierr == CONTACT_ERROR_NOT_FOUND .and. index(contact_last_error(), &
                'interface number 0 is out of range (1 .. ' // trim(itoa(n)) // ')') > 0, &
                'interface 0, named 1-based')
    call contact_model_interface(model, n + 1, sname, mname, k, ierr)
    call expect(ierr == CONTACT_ERROR_NOT_FOUND .and. index(contact_last_error(), &
                'interface number ' // trim(itoa(n + 1)) // ' is out of range') > 0, &
                'interface n + 1, named 1-based')
    call contact_model_interface(model, n, sname, mname, k, ierr)
    call expect(ierr == CONTACT_OK, 'interface n')
    call contact_model_surface(model, 'Nope', mt, mn, off, ierr)
    call expect(ierr == CONTACT_ERROR_NOT_FOUND, 'unknown surface')
    call contact_model_surface(model, 'BlockTop', mt, mn, off, ierr)
    call contact_model_num_nodes(model, n, ierr)
    call expect(ierr == CONTACT_OK .and. off(1) == 1 .and. off(size(off)) == size(mn) + 1 .and. &
                minval(mn) >= 1 .and. maxval(mn) <= n, 'model surface numbers 1-based')
    call contact_model_destroy(model)

    ! A node surface and an element surface of one name (ATOPN): the element surface, or the
    ! node surface with want_node_surface=.true.; a name with one surface gives it either way.
    call get_command_argument(2, path)
    call contact_model_read(model, trim(path), ierr)
    call expect(ierr == CONTACT_OK, 'read the model with two surfaces of one name')
    call contact_model_surface(model, 'ATOPN', mt, mn, off, ierr, slave_nodes=sm)
    call expect(ierr == CONTACT_OK .and. size(mt) == 4 .and. size(sm) == 0, &
                'ATOPN: the element surface')
    call contact_model_surface_sizes(model, 'atopn', n, k, ierr, node_surface=flag, num_nodes=i, &
                                     want_node_surface=.true.)
    call expect(ierr == CONTACT_OK .and. flag .and. n == 0 .and. i == 4, 'node surface sizes')
    call contact_model_surface(model, 'ATOPN', mt, mn, off, ierr, slave_nodes=sm, &
                              want_node_surface=.true.)
    call expect(ierr == CONTACT_OK .and. size(mt) == 0 .and. all(sm == [10, 11, 12, 13]), &
                'ATOPN: the node surface, 1-based')
    call contact_model_surface(model, 'B_BOT', mt, mn, off, ierr, want_node_surface=.true.)
    call expect(ierr == CONTACT_OK .and. size(mt) == 4, 'B_BOT: its one surface')
    ! Interfaces: kind and name, as the C API gives them.
    call contact_model_interface(model, 4, sname, mname, n, ierr, kind=k, name=name)
    call expect(ierr == CONTACT_OK .and. k == CONTACT_INTERFACE_CONTACT_PAIR .and. name == 'I4' &
                .and. sname == 'ATOPN' .and. mname == 'B_BOT', 'interface 4: contact pair I4')
    call contact_model_interface(model, 5, sname, mname, n, ierr, kind=k, name=name)
    call expect(ierr == CONTACT_OK .and. k == CONTACT_INTERFACE_TIE .and. name == 'T1', &
                'interface 5: tie T1')
    call contact_model_interface(model, 6, sname, mname, n, ierr, kind=k, name=name, &
                                 self_contact=flag)
    call expect(ierr == CONTACT_OK .and. k == CONTACT_INTERFACE_GENERAL_CONTACT .and. flag, &
                'interface 6: general contact')
    call contact_model_destroy(model)
    ! Main-program arrays outlive `end program`: freed here so that leak checkers see none.
    deallocate (coords, records, x, y, z, gap, gap2, xi, bad_xi, normal, area, mt, mn, st, sn, &
                slave, master, off, bad, sm, name, long_off, sname, mname, wide, flip)

    write (*, '(A,I0,A,I0,A)') 'fortran_api: ', checks, ' checks, ', failures, ' failed'
    if (failures > 0) stop 1
    write (*, '(A)') 'fortran_api: OK'

contains

    subroutine expect(ok, what)
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        checks = checks + 1
        if (.not. ok) then
            failures = failures + 1
            write (*, '(A)') 'FAILED: ' // what // ' (ierr ' // trim(adjustl(itoa(ierr))) // &
                ', last error: ' // contact_last_error() // ')'
        end if
    end subroutine

    function itoa(v) result(s)
        integer, intent(in) :: v
        character(len=16) :: s
        write (s, '(I0)') v
    end function

    ! Plate nodes first (row by row), then sheet nodes; plate normal +z, sheet normal -z.
    subroutine make_scene()
        integer :: e, n0, total
        total = (nm + 1)**2 + (ns + 1)**2
        allocate (coords(3, total), records(5, total))
        k = 0
        do j = 0, nm
            do i = 0, nm
                k = k + 1
                coords(:, k) = [real(i, c_double), real(j, c_double), 0.0_c_double]
            end do
        end do
        do j = 0, ns
            do i = 0, ns
                k = k + 1
                coords(:, k) = [a0 + h * i, a0 + h * j, g]
            end do
        end do
        records(1:3, :) = coords
        records(4:5, :) = -7
        x = coords(1, :)
        y = coords(2, :)
        z = coords(3, :)
        allocate (mt(nm * nm), mn(4 * nm * nm), st(ns * ns), sn(4 * ns * ns))
        mt = CONTACT_QUAD4
        st = CONTACT_QUAD4
        e = 0
        do j = 0, nm - 1
            do i = 0, nm - 1
                n0 = j * (nm + 1) + i + 1
                mn(4 * e + 1:4 * e + 4) = [n0, n0 + 1, n0 + nm + 2, n0 + nm + 1]
                e = e + 1
            end do
        end do
        e = 0
        do j = 0, ns - 1
            do i = 0, ns - 1
                n0 = (nm + 1)**2 + j * (ns + 1) + i + 1
                sn(4 * e + 1:4 * e + 4) = [n0, n0 + ns + 1, n0 + ns + 2, n0 + 1]
                e = e + 1
            end do
        end do
    end subroutine

end program test_fortran_api
