! SPDX-License-Identifier: MIT
! C's printf("%.17g") in Fortran, so that files written from Fortran and from C or C++ compare
! byte for byte (17 significant digits read back to the same double).
module g17_format
    use, intrinsic :: iso_c_binding, only: c_double
    use, intrinsic :: ieee_arithmetic, only: ieee_is_nan, ieee_is_finite, ieee_class, &
        ieee_positive_zero, ieee_negative_zero, operator(==)
    implicit none
    private
    public :: g17

contains

    !> x as "%.17g" writes it: 17 significant digits with trailing zeros dropped; the exponent
    !> form (at least two exponent digits) when the decimal exponent is below -4 or above 16.
    function g17(x) result(s)
        real(c_double), intent(in) :: x
        character(len=:), allocatable :: s
        character(len=32) :: buf
        character(len=17) :: digits
        character(len=8) :: ebuf
        integer :: e, epos, last
        logical :: negative
        negative = sign(1.0_c_double, x) < 0
        if (ieee_is_nan(x)) then
            s = 'nan'
        else if (.not. ieee_is_finite(x)) then
            s = 'inf'
        else if (ieee_class(x) == ieee_positive_zero .or. ieee_class(x) == ieee_negative_zero) then
            s = '0'
        else
            write (buf, '(ES25.16E3)') abs(x)  ! d.dddddddddddddddde+xxx, rounded as printf does
            buf = adjustl(buf)
            epos = index(buf, 'E')
            digits = buf(1:1) // buf(3:epos - 1)
            read (buf(epos + 1:), *) e
            if (e < -4 .or. e >= 17) then
                last = len_trim(strip(digits(2:)))
                write (ebuf, '(I0)') abs(e)
                if (abs(e) < 10) ebuf = '0' // trim(ebuf)
                s = digits(1:1)
                if (last > 0) s = s // '.' // digits(2:1 + last)
                s = s // 'e' // merge('-', '+', e < 0) // trim(ebuf)
            else if (e >= 0) then
                s = digits(1:e + 1)
                if (e < 16) then
                    last = len_trim(strip(digits(e + 2:)))
                    if (last > 0) s = s // '.' // digits(e + 2:e + 1 + last)
                end if
            else
                last = len_trim(strip(digits))
                s = '0.' // repeat('0', -e - 1) // digits(1:last)
            end if
        end if
        if (negative) s = '-' // s
    end function

    ! The digits with trailing zeros blanked.
    function strip(d) result(t)
        character(len=*), intent(in) :: d
        character(len=len(d)) :: t
        integer :: k
        t = d
        do k = len(t), 1, -1
            if (t(k:k) /= '0') exit
            t(k:k) = ' '
        end do
    end function

end module g17_format
