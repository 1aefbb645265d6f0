# fw-fake-torch.py: a stand-in for the torch module with just the API the wslgpu
# probe script uses (tests/e2e/frameworks.sh runs the real script against it).
# Not a test by itself: run-tests.sh only runs *.sh.
# WSLGPU_FAKE_TORCH=cpu makes it a CPU-only build (2.6.0+cpu).
import os
import warnings
CPU = os.environ.get('WSLGPU_FAKE_TORCH') == 'cpu'
__version__ = '2.6.0+cpu' if CPU else '2.6.0+cu124'
class version:
    cuda = None if CPU else '12.4'
    hip = None
class _Props:
    total_memory = 10737418240
class _T:
    def __init__(self, rows): self.rows = rows
    def float(self): return self
    def cuda(self): return self
    def cpu(self): return self
    def __matmul__(self, o):
        n = len(self.rows)
        return _T([[sum(self.rows[i][k] * o.rows[k][j] for k in range(n)) for j in range(n)] for i in range(n)])
    def __add__(self, x): return _T([[v + x for v in r] for r in self.rows])
    def __getitem__(self, idx): return self
    def item(self): return 9.0
class cuda:
    @staticmethod
    def is_available(): return not CPU
    @staticmethod
    def get_arch_list(): return [] if CPU else ['sm_50', 'sm_60', 'sm_70', 'sm_75', 'sm_80', 'sm_86', 'sm_90']
    @staticmethod
    def device_count(): return 1
    @staticmethod
    def get_device_name(i): return 'NVIDIA GeForce RTX 3080'
    @staticmethod
    def get_device_capability(i): return (8, 6)
    @staticmethod
    def get_device_properties(i): return _Props()
    @staticmethod
    def synchronize(): pass
    @staticmethod
    def init(): pass
def randint(lo, hi, shape):
    import random
    return _T([[float(random.randint(lo, hi - 1)) for _ in range(shape[1])] for _ in range(shape[0])])
def equal(a, b): return a.rows == b.rows
def ones(*a, **k): return _T([[1.0]])
class backends:
    class cudnn:
        @staticmethod
        def version(): return 90100
class nn:
    class functional:
        @staticmethod
        def conv2d(x, w): return _T([[9.0]])
