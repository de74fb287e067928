// members.cpp: a 1-D diffusion written the way C++ application codes
// organise it: a class that owns its fields as std::vector members, sizes
// them in its constructor (resize with a value, assign, push_back; a
// vector built with a count), loops over size() inside its methods, hands a field out
// by reference for range-for loops in main, and takes its settings as a
// small struct passed by value (clang passes it in registers) and copied.
// Usage: mpirun -np P members N STEPS
#include <mpi.h>

#include <cstdlib>
#include <vector>

struct Settings {
	long cells;
	double dt;
};

class Field {
public:
	Field(Settings s, int rank, int size) : s_(s) {
		local_ = s.cells / size + (rank < s.cells % size ? 1 : 0);
		u_.resize(local_ + 2, 1.0);
		f_.assign(local_ + 2, 0.0);
		nb_.push_back(rank > 0 ? rank - 1 : MPI_PROC_NULL);
		nb_.push_back(rank < size - 1 ? rank + 1 : MPI_PROC_NULL);
	}
	std::vector<double> &u() { return u_; }
	long local() const { return local_; }
	void halo() {
		MPI_Sendrecv(&u_[1], 1, MPI_DOUBLE, nb_[0], 0, &u_[local_ + 1], 1, MPI_DOUBLE, nb_[1], 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Sendrecv(&u_[local_], 1, MPI_DOUBLE, nb_[1], 1, &u_[0], 1, MPI_DOUBLE, nb_[0], 1,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	void fluxes() {
		for (std::size_t i = 1; i + 1 < u_.size(); ++i)
			f_[i] = u_[i - 1] - 2.0 * u_[i] + u_[i + 1];
	}
	double update() {
		double e = 0.0;
		for (std::size_t i = 1; i < f_.size() - 1; ++i) {
			u_[i] += s_.dt * f_[i];
			e += u_[i] * u_[i];
		}
		return e;
	}

private:
	Settings s_;
	long local_;
	std::vector<double> u_, f_;
	std::vector<int> nb_;
};

static double energy(Settings s, const std::vector<double> &v) {
	double e = 0;
	for (double x : v)
		e += s.dt * x;
	return e;
}

int main(int argc, char **argv) {
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	Settings s;
	s.cells = argc > 1 ? std::atol(argv[1]) : 100;
	s.dt = 0.1;
	int steps = argc > 2 ? std::atoi(argv[2]) : 4;
	Settings t = s;
	t.cells = 2 * s.cells;
	Field a(s, rank, size), b(t, rank, size);
	std::vector<double> trace(steps);
	double e = 0, all = 0;
	for (int k = 0; k < steps; ++k) {
		a.halo();
		a.fluxes();
		b.fluxes();
		e = a.update() + b.update();
		for (auto &v : a.u())
			v *= 0.5;
		std::vector<double> &w = b.u();
		for (double &v : w)
			v += 1.0;
		trace[k] = energy(t, b.u());
	}
	for (double x : trace)
		e += x;
	MPI_Allreduce(&e, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Finalize();
	return all < 0;
}
