// cutevis — the documented exit codes of the `cutevis` command.
#pragma once

namespace cutevis {

enum ExitCode : int {
  kExitOk = 0,           // success (verify: every operand agrees)
  kExitDisagree = 1,     // verify: the hardware disagrees; --analyze: CuTe would not compile it or it would fault
  kExitBadInput = 2,     // bad input: a bad expression, name, flag or option
  kExitNoGpu = 3,        // verify: no usable GPU or CUDA on this machine
  kExitIoError = 4,      // an output (a file, or stdout: full disk, closed pipe) could not be written
  kExitEnvironment = 5,  // verify: the GPU environment failed (a driver rejected a kernel, a launch failed)
};

}  // namespace cutevis
