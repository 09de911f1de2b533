"""switchyard.dist: arrays spread over the ranks of an MPI job, on mpi4py, the Python face of
C++'s switchyard::dist with the same layouts, errors and reproducible bits.

A distributed array is a local Switchyard array plus a Layout: row blocks along axis 0,
replicated, or ragged (any rows per rank, what `compress` leaves when it keeps some rows). Work
on arrays of one layout is local (`map`); rows move only through `redistribute` and `gather`.
`sum`, `mean` and `norm` are reproducible by default (the same bits at any number of ranks, on
every rank, and as C++); `Summation.FAST` uses MPI_Allreduce. `cumsum` and `cumprod` scan along
the rows in the same two modes (FAST with MPI_Exscan). The reproducible modes work by blocks and
refuse a ragged layout: redistribute it to row blocks first. `save` and `load` write and read
one checkpoint file with MPI-IO, the same format as C++'s: it loads on any number of ranks.
`sort` sorts a vector across the ranks (a sample sort into a ragged layout, stable, as
np.sort(kind="stable") of the whole array) and `top_k` finds its k largest, on every rank.
Three workloads run decomposed: `switchyard.dist.field` (the field over row blocks of its grid
and its statistics through the reproducible sums), `switchyard.dist.nn` (data-parallel MLP
training, its gradients summed over blocks of rows in one fixed order) and
`switchyard.dist.oscillators` (the dense Kuramoto network over row blocks of K, the phases
gathered at each stage of a step).

Importing this module initialises MPI (through mpi4py); `import switchyard` alone never does.
Communicators are mpi4py's (MPI.COMM_WORLD when none is given).
"""

from ._checkpoint import Checkpoint, CheckpointError, load, save  # noqa: F401
from ._compress import compress  # noqa: F401
from ._dist_array import DistArray, LayoutError, map  # noqa: F401,A004
from ._layout import DEFAULT_BLOCK_ROWS, Layout  # noqa: F401
from ._linalg import matmul  # noqa: F401
from ._redistribute import gather, redistribute  # noqa: F401
from ._reductions import (  # noqa: F401,A004
    Summation,
    argmax,
    argmin,
    max,
    mean,
    min,
    norm,
    sum,
)
from ._scans import cumprod, cumsum  # noqa: F401
from ._sort import sort, top_k  # noqa: F401

# The decomposed workloads, on the functions above.
from . import field, nn, oscillators  # noqa: E402,F401
