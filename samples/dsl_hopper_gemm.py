# A CuTeDSL kernel's host side, in the shape CUTLASS's Hopper examples have (written for the
# cutevis tests; runnable with `cutevis dsl samples/dsl_hopper_gemm.py --call ...`): a class
# whose __init__ stores the configuration and whose __call__ (a @cute.jit function) reads the
# tensors' types, then builds the TiledMMA and the shared-memory layouts in _setup_attributes.
import math

import cutlass
import cutlass.cute as cute
import cutlass.utils as utils
import cutlass.utils.hopper_helpers as sm90_utils_basic
from cutlass.cute.nvgpu import warpgroup


class HopperGemm:
    def __init__(self, acc_dtype, tile_shape_mn, cluster_shape_mn, num_stages=4):
        self.acc_dtype = acc_dtype
        self.tile_shape_mnk = (*tile_shape_mn, 1)
        self.cluster_shape_mn = cluster_shape_mn
        # two warp groups for a tall, wide tile (a conditional expression)
        self.atom_layout_mnk = (2, 1, 1) if tile_shape_mn[0] > 64 and tile_shape_mn[1] > 128 else (1, 1, 1)
        self.num_stages = num_stages
        self.threads = math.prod(self.atom_layout_mnk) * 128

    def _setup_attributes(self):
        self.tiled_mma = sm90_utils_basic.make_trivial_tiled_mma(
            self.a_dtype,
            self.b_dtype,
            self.a_layout.sm90_mma_major_mode(),
            self.b_layout.sm90_mma_major_mode(),
            self.acc_dtype,
            self.atom_layout_mnk,
            tiler_mn=(64, self.tile_shape_mnk[1]),
        )
        k = cute.size(self.tiled_mma.shape_mnk, mode=[2]) * 4
        self.tile_shape_mnk = (self.tile_shape_mnk[0], self.tile_shape_mnk[1], k)
        self.sA_layout = sm90_utils_basic.make_smem_layout_a(self.a_layout, self.tile_shape_mnk, self.a_dtype,
                                                             self.num_stages)
        self.sB_layout = sm90_utils_basic.make_smem_layout_b(self.b_layout, self.tile_shape_mnk, self.b_dtype,
                                                             self.num_stages)
        if self.a_dtype.width == 16:
            self.sw128_atom = warpgroup.make_smem_layout_atom(warpgroup.SmemLayoutAtomKind.K_SW128, self.a_dtype)
        else:
            self.sw128_atom = None
        self.cta_layout = cute.make_layout((*self.cluster_shape_mn, 1))

    @cute.jit
    def __call__(self, a: cute.Tensor, b: cute.Tensor, c: cute.Tensor):
        self.a_dtype = a.element_type
        self.b_dtype = b.element_type
        self.a_layout = utils.LayoutEnum.from_tensor(a)
        self.b_layout = utils.LayoutEnum.from_tensor(b)
        self._setup_attributes()
        tile = cute.make_layout((self.tile_shape_mnk[0], self.tile_shape_mnk[2]), stride=(self.tile_shape_mnk[2], 1))
        self.kernel(self.tiled_mma, self.sA_layout).launch(grid=(1, 1, 1), block=[self.threads, 1, 1])

    @cute.kernel
    def kernel(self, tiled_mma, sA_layout):
        raise RuntimeError("a kernel body is never run on the host")


if __name__ == "__main__":
    raise SystemExit("run it with: cutevis dsl samples/dsl_hopper_gemm.py --call ...")
