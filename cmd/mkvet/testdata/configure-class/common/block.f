      subroutine block(lo, hi, k, s)
      integer lo, hi, k, i
      double precision s
      do i = lo, hi
         s = s + dble(i * k)
      enddo
      end
