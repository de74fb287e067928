      subroutine sweep(a, m, k, s)
      integer m, k, i
      double precision a(m), s
      do i = 1, m
         a(i) = i * k
         s = s + a(i)
      enddo
      end
