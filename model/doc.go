// Package model turns counts into time: machine profiles (what operations
// and messages cost on a machine), point-to-point communication models and
// the collective operations built on them.
//
// # Communication models
//
// Every point-to-point model implements PointToPoint: Time takes the
// message size in bytes as a symbolic expression (8*N/P, say) and returns
// the time in seconds as a symbolic.Piecewise whose guards are conditions
// on that size, one piece per size regime, so that later stages keep closed
// forms in N and P; Seconds is the same in floating point.
//
//	Hockney  t_s + m*t_c                                   Pacheco (seed 004 §11.5), MK, SCALA rho + beta*D
//	LogP     2o + L + (max(ceil(m/W),1) - 1)*max(g, o)     Culler et al., as cited by seeds 002 and 003
//	LogGP    o + m*G + L + o per size regime; above the     Brim (seed 002 §V.iii)
//	         eager limit 3L + 3o_s + 2o_l + m*G_c
//	LogGPS   o + m*G + L + o up to S bytes; above S the     Ino et al. (seed 003 §2, §4)
//	         sender synchronizes: 3L + 5o + m*G
//
// Collective names an MPI collective with the algorithm assumed for it
// (binomial trees, dissemination barrier, ring allgather, pairwise
// all-to-all), its time a closed form in p and m with ceil(log2(p)) stages,
// so that it holds for every p.
//
// # Profiles
//
// A Profile holds per-operation costs and the parameters of one or more
// models. Profiles are embedded for the machines of the seed papers (Names
// lists them; each is cited to its table), with DefaultName, a nominal
// present-day cluster node, as the default; `mkvet netbench` measures a
// machine and writes its profile. Load takes what -machine is given: an
// embedded name or a file.
//
// # Profile files
//
// A profile file is one JSON object. Every quantity is a string with its
// unit, read exactly ("2.15us" is 215/10^8 seconds): times in s, ms, us (or
// µs), ns, ps; sizes in B, KB, MB, GB (powers of ten), KiB, MiB, GiB
// (powers of two), or b/bit for bits; per-byte costs as a time per size
// ("0.5ns/B", "0.372917 us/B") or as a bandwidth, inverted exactly
// ("30MB/s", "12.5GB/s", "2Gb/s"). Sizes may also be JSON integers, in
// bytes. A space between number and unit is allowed. Every section and
// field is optional except where noted; unknown and repeated fields are
// errors.
//
//	{
//	  "name": "lam-c",                  -machine name; default: the file's base name
//	  "description": "...",             free text
//	  "source": "...",                  where the numbers come from
//	  "model": "loggp",                 hockney | logp | loggp | loggps; default: the most detailed given
//	  "ops": {                          seconds per operation
//	    "flop": "0.5ns",                  default for add, mul, div, intrinsic
//	    "add": "0.5ns", "mul": "0.5ns", "div": "4ns", "intrinsic": "20ns",
//	    "load": "1ns", "store": "1ns"     array element load and store; default 0
//	  },
//	  "hockney": {"t_s": "120us", "t_c": "30MB/s"},             both required
//	  "logp": {"L": "9.11us", "o": "2.15us", "g": "3us", "P": 64, "W": "8B"},
//	  "loggp": {
//	    "L": "60us", "g": "0us", "P": 32,
//	    "regimes": [                    required, increasing; the last has no "below"
//	      {"below": "1400B", "o": "39.03us", "G": "0.374008us/B"},
//	      {"o": "163.43us", "G": "0.182775us/B"}
//	    ],
//	    "eager_limit": "65536B",        largest eager message; omit for no rendezvous
//	    "rendezvous": {"o_ctrl": "39.03us", "o_data": "163.43us", "G": "0.216644us/B"}
//	  },
//	  "loggps": {"L": "9.11us", "o": "2.15us", "g": "0s", "G": "4ns/B", "P": 64,
//	             "S": "16383B", "s": "4KiB"},                     S required
//	  "patterns": {"1d-short": {"rho": "35.6us", "beta": "0.02us/B"}}
//	}
//
// Errors name the file, the line and column, the field and the problem:
//
//	lam.json:9:42: loggp.regimes[0].G: unknown unit "usec/B" in "0.374008usec/B"
package model
