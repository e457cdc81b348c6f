# A CuTeDSL-style Hopper GEMM set-up, written for cutevis's tests (not taken from CUTLASS):
# module constants, attributes set in methods, locals at several indentations.
import cutlass
import cutlass.cute as cute
import cutlass.utils as utils
import cutlass.utils.hopper_helpers as sm90_utils
from cutlass.cute.nvgpu import warp

NUM_STAGES = 4
THREADS = 128 * 2


class HopperGemm:
    """Tiles: A (M,K) and B (N,K) in shared memory, x = y in a docstring is not code."""

    def __init__(self, acc_dtype, tile_shape_mnk):
        self.acc_dtype = acc_dtype
        self.tile_shape_mnk = tile_shape_mnk
        self.atom_layout_mnk = (2, 1, 1)

    @cute.jit
    def __call__(self, a, b):
        self.a_dtype = cutlass.Float16
        tiled_mma = sm90_utils.make_trivial_tiled_mma(
            self.a_dtype,
            self.a_dtype,
            cute.nvgpu.OperandMajorMode.K,
            cute.nvgpu.OperandMajorMode.K,
            self.acc_dtype,
            self.atom_layout_mnk,
            tiler_mn=(64, self.tile_shape_mnk[1]),  # one warpgroup per 64 rows
        )
        a_smem_layout_staged = sm90_utils.make_smem_layout_a(
            utils.LayoutEnum.ROW_MAJOR, self.tile_shape_mnk, self.a_dtype, NUM_STAGES
        )
        if THREADS > 128:
            epi_tile = (self.tile_shape_mnk[0] // 2, 32)
        copy_atom = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), self.a_dtype, num_bits_per_copy=128)
        tiled_copy = cute.make_tiled_copy_tv(copy_atom, cute.make_layout((THREADS // 8, 8), stride=(8, 1)), cute.make_layout((1, 8)))


def sm80_fallback():
    mma = cute.make_tiled_mma(warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16)), (2, 2, 1), permutation_mnk=(32, 32, 16))
    return mma
