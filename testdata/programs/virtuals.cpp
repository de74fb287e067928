// virtuals.cpp: work chosen by C++ virtual calls, as class hierarchies
// choose it: an abstract kernel with a pure virtual sweep, two kernels
// that implement it and a third that inherits one and overrides the width
// of its halo; each rank makes the kernel its rank chooses with new, keeps
// it in an array of base pointers, and calls it through the base (a
// template method that calls a virtual one on this, a reference to an
// object on the stack, a virtual destructor through delete); the halo's
// width, a virtual getter, sizes a reduction.  Run: virtuals n steps
#include <mpi.h>
#include <cstdlib>

struct Kernel {
	int n;
	explicit Kernel(int n_) : n(n_) {}
	virtual ~Kernel() {}
	virtual double sweep(double x) = 0;
	virtual int halo() const { return 1; }
	double run(int steps, double x)
	{
		for (int s = 0; s < steps; s++)
			x = sweep(x);
		return x;
	}
};

struct Jacobi : Kernel {
	explicit Jacobi(int n_) : Kernel(n_) {}
	double sweep(double x) override
	{
		for (int i = 0; i < n; i++)
			x = 0.5 * x + i;
		return x;
	}
};

struct Wide : Kernel {
	explicit Wide(int n_) : Kernel(n_) {}
	double sweep(double x) override
	{
		int h = halo();
		for (int k = 0; k < h; k++)
			for (int i = 0; i < n; i++)
				x = 0.25 * x + k;
		return x;
	}
	int halo() const override { return 3; }
};

struct Damped : Jacobi {
	explicit Damped(int n_) : Jacobi(n_) {}
	int halo() const override { return 2; }
};

int main(int argc, char **argv)
{
	int me, np;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	int n = atoi(argv[1]), steps = atoi(argv[2]);
	Kernel *ks[2];
	for (int j = 0; j < 2; j++) {
		switch ((me + j) % 3) {
		case 0:
			ks[j] = new Jacobi(n);
			break;
		case 1:
			ks[j] = new Wide(n + me);
			break;
		default:
			ks[j] = new Damped(2 * n);
		}
	}
	double x = 1.0, buf[8] = {0}, out[8];
	for (int j = 0; j < 2; j++)
		x = ks[j]->run(steps, x);
	// A kernel every rank makes alike: its halo sizes a reduction.
	Kernel *shared;
	if (steps % 2)
		shared = new Wide(n);
	else
		shared = new Damped(n);
	for (int s = 0; s < steps; s++)
		MPI_Allreduce(buf, out, shared->halo(), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	delete shared;
	Wide local(n / 2);
	Kernel &r = local;
	x = r.run(1, x);
	for (int j = 0; j < 2; j++)
		delete ks[j];
	MPI_Finalize();
	return x < 0.0;
}
