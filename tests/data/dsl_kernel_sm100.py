# A CuTeDSL-style Blackwell GEMM set-up, written for cutevis's tests (not taken from CUTLASS):
# the sm100 SMEM helpers fed by a tiled MMA, and attributes of the tiled MMA and a tiled copy.
import cutlass
import cutlass.cute as cute
import cutlass.utils as utils
import cutlass.utils.blackwell_helpers as sm100_utils
from cutlass.cute.nvgpu import tcgen05


class BlackwellGemm:
    def __init__(self, mma_tiler_mnk):
        self.mma_tiler_mnk = mma_tiler_mnk
        self.ab_dtype = cutlass.Float16
        self.num_ab_stage = 4

    @cute.jit
    def __call__(self, a, b):
        tiled_mma = sm100_utils.make_trivial_tiled_mma(
            self.ab_dtype,
            self.ab_dtype,
            tcgen05.OperandMajorMode.K,
            tcgen05.OperandMajorMode.MN,
            cutlass.Float32,
            tcgen05.CtaGroup.ONE,
            (self.mma_tiler_mnk[0], self.mma_tiler_mnk[1]),
        )
        a_smem_layout_staged = sm100_utils.make_smem_layout_a(tiled_mma, self.mma_tiler_mnk, self.ab_dtype, self.num_ab_stage)
        b_smem_layout_staged = sm100_utils.make_smem_layout_b(tiled_mma, self.mma_tiler_mnk, self.ab_dtype, self.num_ab_stage)
        a_major = tiled_mma.op.a_major_mode
        tile_n = tiled_mma.get_tile_size(1)
        a_shape = tiled_mma.partition_shape_A((self.mma_tiler_mnk[0], self.mma_tiler_mnk[2]))
        c_tv = tiled_mma.tv_layout_C_tiled
        epi_smem_layout = sm100_utils.make_smem_layout_epi(cutlass.Float16, utils.LayoutEnum.ROW_MAJOR, (128, 64), 2)
