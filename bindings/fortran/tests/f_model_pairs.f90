! SPDX-License-Identifier: MIT
! Runs the search on a model file through the Fortran module and writes the pairs as the
! contact-search tool's --pairs CSV does (ids as in the file, %.17g), so that a test compares
! the two files byte for byte. Same choices as the tool: every *CONTACT PAIR / *TIE of the file,
! or the named surfaces; capture 0.5 x mean master segment size; self-contact when master is
! slave. Usage: f_model_pairs MODEL OUT.csv [--master NAME --slave NAME] [--mode node|segment]
program f_model_pairs
    use, intrinsic :: iso_c_binding, only: c_double, c_int32_t, c_int64_t
    use contact
    use g17_format, only: g17
    implicit none
    type(contact_model) :: model
    character(len=1024) :: path, out_path, arg, val
    character(len=:), allocatable :: master_name, slave_name, sname, mname
    integer :: mode, i, ierr, count, unit, itf_mode, n
    logical :: itf_self
    real(c_double), allocatable :: coords(:, :)
    integer(c_int64_t), allocatable :: ids(:)

    if (command_argument_count() < 2) then
        write (*, '(A)') 'usage: f_model_pairs MODEL OUT.csv [--master NAME --slave NAME] ' // &
            '[--mode node|segment]'
        stop 2
    end if
    call get_command_argument(1, path)
    call get_command_argument(2, out_path)
    master_name = ''
    slave_name = ''
    mode = -1
    do i = 3, command_argument_count() - 1, 2
        call get_command_argument(i, arg)
        call get_command_argument(i + 1, val)
        select case (trim(arg))
        case ('--master')
            master_name = trim(val)
        case ('--slave')
            slave_name = trim(val)
        case ('--mode')
            mode = merge(CONTACT_MODE_SEGMENT_TO_SEGMENT, CONTACT_MODE_NODE_TO_SEGMENT, &
                         trim(val) == 'segment')
        case default
            write (*, '(A)') 'f_model_pairs: unknown option ' // trim(arg)
            stop 2
        end select
    end do

    call contact_model_read(model, trim(path), ierr)
    call check('contact_model_read')
    call contact_model_coordinates(model, coords, ierr)
    call check('contact_model_coordinates')
    call contact_model_node_ids(model, ids, ierr)
    call check('contact_model_node_ids')
    open (newunit=unit, file=trim(out_path), status='replace', action='write', iostat=ierr)
    if (ierr /= 0) then
        write (*, '(A)') 'f_model_pairs: cannot write ' // trim(out_path)
        stop 2
    end if
    if (len(master_name) > 0) then
        if (mode < 0) mode = CONTACT_MODE_NODE_TO_SEGMENT
        call header(mode)
        call search_interface(1, master_name, slave_name, mode, master_name == slave_name)
    else
        call contact_model_interface_count(model, count, ierr)
        call check('contact_model_interface_count')
        do i = 1, count
            call contact_model_interface(model, i, sname, mname, itf_mode, ierr, &
                                         self_contact=itf_self)
            call check('contact_model_interface')
            if (mode >= 0) itf_mode = mode
            if (i == 1) call header(itf_mode)
            call search_interface(i, mname, sname, itf_mode, itf_self)
        end do
    end if
    close (unit)
    call contact_model_destroy(model)
    ! Main-program arrays outlive `end program`: freed here so that leak checkers see none.
    deallocate (coords, ids, master_name, slave_name)
    if (allocated(sname)) deallocate (sname, mname)

contains

    subroutine check(what)
        character(len=*), intent(in) :: what
        if (ierr /= CONTACT_OK) then
            write (*, '(A)') 'f_model_pairs: ' // what // ': ' // contact_last_error()
            stop 2
        end if
    end subroutine

    subroutine header(m)
        integer, intent(in) :: m
        if (m == CONTACT_MODE_SEGMENT_TO_SEGMENT) then
            write (unit, '(A)') 'interface,slave_element,slave_face,master_element,master_face,' // &
                'overlap_area,capture_area,penetration_area'
        else
            write (unit, '(A)') 'interface,slave_node,master_element,master_face,xi,eta,gap,nx,ny,nz'
        end if
    end subroutine

    function itoa(k) result(s)
        integer(c_int64_t), intent(in) :: k
        character(len=:), allocatable :: s
        character(len=24) :: buf
        write (buf, '(I0)') k
        s = trim(buf)
    end function

    subroutine search_interface(index, mname, sname, m, self)
        integer, intent(in) :: index, m
        character(len=*), intent(in) :: mname, sname
        logical, intent(in) :: self
        integer(c_int32_t), allocatable :: mtypes(:), mnodes(:), moffsets(:), mfaces(:)
        integer(c_int32_t), allocatable :: stypes(:), snodes(:), soffsets(:), sfaces(:)
        integer(c_int32_t), allocatable :: slave_nodes(:), slave(:), master(:)
        integer(c_int64_t), allocatable :: melems(:), selems(:)
        real(c_double), allocatable :: gap(:), xi(:, :), normal(:, :)
        integer(c_int32_t), allocatable :: oslave(:), omaster(:)
        real(c_double), allocatable :: oarea(:), ocapture(:), openetration(:)
        real(c_double) :: areas(3)
        integer :: dim, nseg, nconn, k, j, no
        logical :: node_surface, want_nodes
        type(contact_search) :: search
        character(len=:), allocatable :: line
        ! The surfaces the tool searches where a node surface and an element surface share a
        ! name (mesh_io::prepareInterface): the node surface as slave in node mode, else the
        ! element surface.
        want_nodes = m == CONTACT_MODE_NODE_TO_SEGMENT
        call contact_model_surface_sizes(model, mname, nseg, nconn, ierr, dim=dim, &
                                         want_node_surface=.false.)
        call check('contact_model_surface_sizes')
        call contact_model_surface(model, mname, mtypes, mnodes, moffsets, ierr, &
                                   element_ids=melems, faces=mfaces, want_node_surface=.false.)
        call check('contact_model_surface (master)')
        call contact_model_surface_sizes(model, sname, nseg, nconn, ierr, &
                                         node_surface=node_surface, want_node_surface=want_nodes)
        call check('contact_model_surface_sizes')
        call contact_model_surface(model, sname, stypes, snodes, soffsets, ierr, &
                                   element_ids=selems, faces=sfaces, slave_nodes=slave_nodes, &
                                   want_node_surface=want_nodes)
        call check('contact_model_surface (slave)')
        call contact_create(search, ierr, mode=m, self_contact=self)
        call check('contact_create')
        if (node_surface) then
            call contact_set_surfaces_nodes(search, mtypes, mnodes, slave_nodes, coords, ierr, &
                                            master_offsets=moffsets, dim=dim)
        else
            call contact_set_surfaces(search, mtypes, mnodes, stypes, snodes, coords, ierr, &
                                      master_offsets=moffsets, slave_offsets=soffsets, dim=dim)
        end if
        call check('contact_set_surfaces')
        call contact_update(search, coords, ierr, dim=dim)
        call check('contact_update')
        call contact_pair_count(search, n, ierr)
        call check('contact_pair_count')
        allocate (slave(n), master(n), gap(n), xi(2, n), normal(3, n))
        if (m == CONTACT_MODE_NODE_TO_SEGMENT) then
            call contact_get_pairs(search, slave, master, ierr, gap=gap, xi=xi, normal=normal)
            call check('contact_get_pairs')
            do k = 1, n
                line = itoa(int(index, c_int64_t)) // ',' // itoa(ids(slave(k))) // ',' // &
                    itoa(melems(master(k))) // ',' // itoa(int(mfaces(master(k)), c_int64_t)) &
                    // ',' // g17(xi(1, k)) // ',' // g17(xi(2, k)) // ',' // g17(gap(k)) // ',' &
                    // g17(normal(1, k)) // ',' // g17(normal(2, k)) // ',' // g17(normal(3, k))
                write (unit, '(A)') line
            end do
        else
            call contact_get_pairs(search, slave, master, ierr)
            call check('contact_get_pairs')
            call contact_compute_overlaps(search, coords, no, ierr, dim=dim)
            call check('contact_compute_overlaps')
            allocate (oslave(no), omaster(no), oarea(no), ocapture(no), openetration(no))
            call contact_get_overlaps(search, oslave, omaster, ierr, overlap_area=oarea, &
                                      capture_area=ocapture, penetration_area=openetration)
            call check('contact_get_overlaps')
            ! Overlaps come in the pairs' order, pairs without one left out: walk both.
            j = 1
            do k = 1, n
                areas = 0.0_c_double
                if (j <= no) then
                    if (oslave(j) == slave(k) .and. omaster(j) == master(k)) then
                        areas = [oarea(j), ocapture(j), openetration(j)]
                        j = j + 1
                    end if
                end if
                line = itoa(int(index, c_int64_t)) // ',' // itoa(selems(slave(k))) // ',' // &
                    itoa(int(sfaces(slave(k)), c_int64_t)) // ',' // itoa(melems(master(k))) // &
                    ',' // itoa(int(mfaces(master(k)), c_int64_t)) // ',' // g17(areas(1)) // &
                    ',' // g17(areas(2)) // ',' // g17(areas(3))
                write (unit, '(A)') line
            end do
            if (j /= no + 1) then
                write (*, '(A)') 'f_model_pairs: overlaps not matched to pairs'
                stop 1
            end if
        end if
        call contact_destroy(search)
    end subroutine

end program f_model_pairs
