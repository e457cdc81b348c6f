# A CuTeDSL-style TMA set-up, written for cutevis's tests (not taken from CUTLASS): the gmem
# tensor is a kernel argument, given with -D mA=... (either spelling).
import cutlass
import cutlass.cute as cute
import cutlass.utils as utils
import cutlass.utils.hopper_helpers as sm90_utils
from cutlass.cute.nvgpu import cpasync


class HopperTma:
    @cute.jit
    def __call__(self, mA: cute.Tensor):
        a_smem_layout = sm90_utils.make_smem_layout_a(utils.LayoutEnum.ROW_MAJOR, (128, 128, 64), cutlass.Float16, 4)
        tma_atom_a = cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SOp(), mA, a_smem_layout, (128, 64))
