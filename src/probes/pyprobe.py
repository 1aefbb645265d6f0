# wslgpu framework probe: run as  python3 -c SCRIPT FRAMEWORK
# FRAMEWORK is torch, tensorflow, jax or cupy. Prints one line per stage:
#   @@wslgpu-pyprobe@@ {json snapshot}
# on the original stdout; everything the framework prints goes to stderr.
# Parsed by src/parse/pyprobe.c; embedded in the binary by the build (Makefile).
# Python 3.6+, standard library only; every stage catches its own errors.
import sys
sys.path[:] = [p for p in sys.path if p not in ('', '.')]
import os
import json
import time

MARK = '@@wslgpu-pyprobe@@'
FW = sys.argv[-1] if len(sys.argv) > 1 else ''
try:
    OUT = os.fdopen(os.dup(1), 'w')
    os.dup2(2, 1)
    sys.stdout = sys.stderr
except Exception:
    OUT = sys.stdout
R = {'probe': 'wslgpu-pyprobe/1', 'framework': FW, 'stage': 'start',
     'python': sys.version.split()[0], 'executable': sys.executable or ''}
T0 = time.time()
NWARN = [0]
STUCK = [False]  # a thread we gave up on is still in the driver


def emit(stage):
    R['stage'] = stage
    R['elapsed'] = '%.3f' % (time.time() - T0)
    try:
        OUT.write(MARK + ' ' + json.dumps(R, sort_keys=True) + '\n')
        OUT.flush()
    except Exception:
        pass


def text(e):
    s = '%s: %s' % (type(e).__name__, e)
    return s[:2000]


def warn(msg):
    if NWARN[0] < 8:
        R['warning.%d' % NWARN[0]] = str(msg)[:1000]
        NWARN[0] += 1


def captured(fn):
    import warnings
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try:
            value, error = fn(), None
        except Exception as e:
            value, error = None, e
    for w in ws:
        warn(w.message)
    if error is not None:
        raise error
    return value


def mapped_libcuda():
    paths = []
    try:
        with open('/proc/self/maps') as f:
            for line in f:
                parts = line.split(None, 5)
                if len(parts) == 6:
                    p = parts[5].strip()
                    if os.path.basename(p).startswith('libcuda.so') and p not in paths:
                        paths.append(p)
    except Exception as e:
        R['maps_error'] = text(e)
    return paths


def libcuda_facts():
    # Which libcuda the framework mapped, read before we load one ourselves.
    mapped = mapped_libcuda()
    for i, p in enumerate(mapped[:4]):
        R['libcuda.%d' % i] = p
    try:
        import ctypes
        lib = ctypes.CDLL('libcuda.so.1')
        v = ctypes.c_int(0)
        if lib.cuDriverGetVersion(ctypes.byref(v)) == 0:
            R['driver_cuda'] = str(v.value)
        if not mapped:
            ours = mapped_libcuda()
            if ours:
                R['libcuda_dlopen'] = ours[0]
        if 'device.0.cc' not in R:
            # In a thread with a limit: a CUDA initialisation that hangs must
            # not turn a CPU-only build into a hung probe.
            import threading
            got = {}
            th = threading.Thread(target=gpu_facts, args=(ctypes, lib, got))
            th.daemon = True
            th.start()
            th.join(2.0)
            if th.is_alive():
                R['gpu_facts_error'] = 'cuInit did not return within 2 s'
                STUCK[0] = True
            else:
                R.update(got)
    except Exception as e:
        R['driver_error'] = text(e)


def gpu_facts(ctypes, lib, R):
    # The GPUs as the driver sees them, for a framework that saw none (a
    # CPU-only build): which build to install depends on their compute
    # capability (CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR/MINOR = 75/76).
    if lib.cuInit(0) != 0:
        return
    n = ctypes.c_int(0)
    if lib.cuDeviceGetCount(ctypes.byref(n)) != 0:
        return
    for i in range(min(n.value, 8)):
        dev, major, minor = ctypes.c_int(0), ctypes.c_int(0), ctypes.c_int(0)
        if lib.cuDeviceGet(ctypes.byref(dev), i) != 0:
            continue
        if (lib.cuDeviceGetAttribute(ctypes.byref(major), 75, dev) == 0 and
                lib.cuDeviceGetAttribute(ctypes.byref(minor), 76, dev) == 0):
            R['cuda_device.%d.cc' % i] = '%d.%d' % (major.value, minor.value)
        name = ctypes.create_string_buffer(256)
        if lib.cuDeviceGetName(name, 256, dev) == 0:
            R['cuda_device.%d.name' % i] = name.value.decode('utf-8', 'replace')


# Distribution names (PyPI) of each framework, the conda package names, and
# the packages installed beside it that must come from the same build.
DISTS = {'torch': ('torch',), 'tensorflow': ('tensorflow', 'tensorflow-cpu', 'tf-nightly',
                                             'tensorflow-gpu', 'intel-tensorflow'),
         'jax': ('jax',), 'cupy': ('cupy-cuda13x', 'cupy-cuda12x', 'cupy-cuda11x', 'cupy')}
CONDA = {'torch': ('pytorch',), 'tensorflow': ('tensorflow', 'tensorflow-base'),
         'jax': ('jaxlib', 'jax'), 'cupy': ('cupy', 'cupy-core')}
COMPANIONS = {'torch': ('torchvision', 'torchaudio')}


def same_dir(a, b):
    try:
        return os.path.samefile(a, b)
    except Exception:
        return os.path.normpath(a) == os.path.normpath(b)


def first_line(dist, name):
    try:
        t = dist.read_text(name)
    except Exception:
        return None
    return t.strip().splitlines()[0][:200] if t and t.strip() else None


def origin_facts(name):
    # How the package got here, so that the fix can be one that works here:
    # a distribution package, pip/uv in a venv, conda, pip --user, pipx, a
    # PEP 668 externally managed interpreter. Facts only; judged in C.
    try:
        import importlib.util
        spec = importlib.util.find_spec(name)
    except Exception as e:
        R['origin_error'] = text(e)
        return
    if spec is None:
        return
    origin = spec.origin if spec.origin not in (None, 'namespace') else None
    locs = list(spec.submodule_search_locations or [])
    where = origin or (locs[0] if locs else None)
    if not where:
        return
    R['module_file'] = where
    pkgdir = os.path.dirname(where) if origin and locs else where
    site_dir = os.path.dirname(pkgdir) if locs else os.path.dirname(where)
    R['site_dir'] = site_dir
    R['site_writable'] = os.access(site_dir, os.W_OK)
    R['prefix'] = sys.prefix
    R['base_prefix'] = getattr(sys, 'base_prefix', sys.prefix)
    R['platform'] = sys.platform
    if os.environ.get('PYTHONPATH'):
        R['pythonpath'] = os.environ['PYTHONPATH']
    try:
        import sysconfig
        marker = os.path.join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED')
        if os.path.isfile(marker):
            R['externally_managed'] = marker
    except Exception as e:
        R['origin_error'] = text(e)
    cfg = os.path.join(sys.prefix, 'pyvenv.cfg')
    if os.path.isfile(cfg):
        R['pyvenv_cfg'] = cfg
        try:
            with open(cfg) as f:
                for line in f:
                    k, _, v = line.partition('=')
                    k = k.strip().lower()
                    if k in ('uv', 'virtualenv', 'include-system-site-packages'):
                        R['venv.' + k.replace('-', '_')] = v.strip()[:100]
        except Exception:
            pass
    meta = os.path.join(sys.prefix, 'conda-meta')
    if os.path.isdir(meta):
        R['conda_meta'] = meta
        try:
            for f in sorted(os.listdir(meta)):
                stem = f[:-5] if f.endswith('.json') else ''
                if stem.rsplit('-', 2)[0] in CONDA.get(name, ()):
                    R['conda_package'] = stem
                    break
        except Exception:
            pass
    try:
        import site
        if getattr(site, 'ENABLE_USER_SITE', False) and site.USER_SITE:
            R['user_site'] = site.USER_SITE
    except Exception:
        pass
    try:
        import importlib.util as u
        R['has_pip'] = u.find_spec('pip') is not None
        R['has_ensurepip'] = u.find_spec('ensurepip') is not None
    except Exception:
        pass
    try:
        from importlib import metadata
    except ImportError:
        return
    for n in DISTS.get(name, (name,)) + COMPANIONS.get(name, ()):
        try:
            d = metadata.distribution(n)
            if not same_dir(str(d.locate_file('')), site_dir):
                continue
        except Exception:
            continue
        if n in COMPANIONS.get(name, ()):
            R['companions'] = (R.get('companions', '') + ' ' + n).strip()
            continue
        if 'dist' in R:
            continue
        R['dist'] = n
        R['dist_version'] = str(d.version)
        path = getattr(d, '_path', None)
        if path is not None:
            R['dist_info'] = str(path)
        inst = first_line(d, 'INSTALLER')
        if inst:
            R['installer'] = inst
        try:
            url = json.loads(d.read_text('direct_url.json') or 'null')
            if isinstance(url, dict) and url.get('url'):
                R['direct_url'] = str(url['url'])[:1000]
        except Exception:
            pass
    # Another copy further down sys.path: the one imported hides it.
    k = 0
    for p in sys.path:
        if k >= 4 or not p or same_dir(p, site_dir):
            continue
        if os.path.isfile(os.path.join(p, name, '__init__.py')):
            R['other_copy.%d' % k] = os.path.join(p, name)
            k += 1


def imported(name):
    emit('import')
    t = time.time()
    try:
        mod = __import__(name)
    except ImportError as e:
        missing = getattr(e, 'name', None)
        R['installed'] = not (missing == name.split('.')[0] and type(e).__name__ == 'ModuleNotFoundError')
        R['import_error'] = text(e)
        return None
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        R['installed'] = True
        R['import_error'] = text(e)
        return None
    R['installed'] = True
    R['t_import'] = '%.3f' % (time.time() - t)
    return mod


def dist_version(*names):
    try:
        from importlib import metadata
    except ImportError:
        return None
    for n in names:
        try:
            return n, metadata.version(n)
        except Exception:
            pass
    return None


def probe_torch():
    torch = imported('torch')
    if torch is None:
        return
    R['version'] = str(torch.__version__)
    cuda = getattr(torch.version, 'cuda', None)
    if cuda:
        R['cuda_build'] = str(cuda)
    hip = getattr(torch.version, 'hip', None)
    if hip:
        R['rocm_build'] = str(hip)
    if not cuda and not hip:
        R['cpu_only'] = True
    try:
        R['arch_list'] = [str(a) for a in torch.cuda.get_arch_list()]
    except Exception as e:
        R['arch_error'] = text(e)
    emit('cuda')
    try:
        avail = bool(captured(torch.cuda.is_available))
    except Exception as e:
        avail = False
        R['cuda_error'] = text(e)
    R['available'] = avail
    if not avail:
        if cuda:
            try:
                captured(torch.cuda.init)
            except Exception as e:
                R['cuda_error'] = text(e)
        return
    n = torch.cuda.device_count()
    R['device_count'] = str(n)
    for i in range(min(n, 8)):
        try:
            R['device.%d.name' % i] = str(torch.cuda.get_device_name(i))
            R['device.%d.cc' % i] = '%d.%d' % tuple(torch.cuda.get_device_capability(i))
            R['device.%d.memory' % i] = str(torch.cuda.get_device_properties(i).total_memory)
        except Exception as e:
            R['device.%d.error' % i] = text(e)
    emit('compute')
    try:
        def mm():
            a = torch.randint(0, 4, (64, 64)).float()
            b = torch.randint(0, 4, (64, 64)).float()
            want = a @ b + 1
            got = (a.cuda() @ b.cuda() + 1).cpu()
            torch.cuda.synchronize()
            return bool(torch.equal(got, want))
        R['compute'] = 'ok' if captured(mm) else 'mismatch'
    except Exception as e:
        R['compute'] = 'error'
        R['compute_error'] = text(e)
        return
    emit('conv')
    try:
        def conv():
            v = torch.backends.cudnn.version()
            if v is not None:
                R['cudnn'] = str(v)
            x = torch.ones(1, 1, 8, 8, device='cuda')
            w = torch.ones(1, 1, 3, 3, device='cuda')
            y = torch.nn.functional.conv2d(x, w)
            torch.cuda.synchronize()
            return float(y[0, 0, 0, 0].item()) == 9.0
        R['conv'] = 'ok' if captured(conv) else 'mismatch'
    except Exception as e:
        R['conv'] = 'error'
        R['conv_error'] = text(e)


def probe_tensorflow():
    tf = imported('tensorflow')
    if tf is None:
        return
    R['version'] = str(getattr(tf, '__version__', ''))
    try:
        info = dict(tf.sysconfig.get_build_info())
        R['is_cuda_build'] = bool(info.get('is_cuda_build'))
        if info.get('cuda_version'):
            R['cuda_build'] = str(info.get('cuda_version'))
        if info.get('cudnn_version'):
            R['cudnn'] = str(info.get('cudnn_version'))
        caps = info.get('cuda_compute_capabilities')
        if caps:
            R['arch_list'] = [str(c) for c in caps]
    except Exception as e:
        R['build_info_error'] = text(e)
    if not R.get('is_cuda_build'):
        R['cpu_only'] = True
    emit('cuda')
    try:
        gpus = captured(lambda: tf.config.list_physical_devices('GPU'))
    except Exception as e:
        gpus = []
        R['cuda_error'] = text(e)
    R['device_count'] = str(len(gpus))
    R['available'] = len(gpus) > 0
    for i, g in enumerate(gpus[:8]):
        try:
            tf.config.experimental.set_memory_growth(g, True)
        except Exception:
            pass
        try:
            d = tf.config.experimental.get_device_details(g)
            R['device.%d.name' % i] = str(d.get('device_name', g.name))
            cc = d.get('compute_capability')
            if cc:
                R['device.%d.cc' % i] = '%d.%d' % tuple(cc)
        except Exception as e:
            R['device.%d.error' % i] = text(e)
    if not gpus:
        return
    emit('compute')
    try:
        def mm():
            import numpy as np
            a = np.random.randint(0, 4, (64, 64)).astype('float32')
            b = np.random.randint(0, 4, (64, 64)).astype('float32')
            with tf.device('/GPU:0'):
                got = (tf.matmul(tf.constant(a), tf.constant(b)) + 1).numpy()
            return bool((got == a @ b + 1).all())
        R['compute'] = 'ok' if captured(mm) else 'mismatch'
    except Exception as e:
        R['compute'] = 'error'
        R['compute_error'] = text(e)


def probe_jax():
    import logging

    class Keep(logging.Handler):
        def emit(self, record):
            try:
                warn(record.getMessage())
            except Exception:
                pass
    logging.getLogger('jax').addHandler(Keep(logging.WARNING))
    jax = imported('jax')
    if jax is None:
        return
    R['version'] = str(getattr(jax, '__version__', ''))
    try:
        import jaxlib
        R['jaxlib'] = str(getattr(jaxlib, '__version__', ''))
    except Exception as e:
        R['jaxlib_error'] = text(e)
    plugin = dist_version('jax-cuda13-plugin', 'jax-cuda12-plugin', 'jax_cuda12_plugin',
                          'jax-cuda11-plugin')
    if plugin:
        R['cuda_plugin'] = '%s %s' % plugin
        R['cuda_build'] = plugin[0].split('-')[1].replace('cuda', '')
    emit('cuda')
    try:
        devs = captured(jax.devices)
        R['backend'] = str(jax.default_backend())
    except Exception as e:
        devs = []
        R['cuda_error'] = text(e)
    gpus = [d for d in devs if getattr(d, 'platform', '') in ('gpu', 'cuda')]
    if not gpus and 'cuda_error' not in R:
        try:
            captured(lambda: jax.devices('cuda'))
        except Exception as e:
            R['cuda_error'] = text(e)
    if not plugin and not gpus:
        R['cpu_only'] = True
    R['device_count'] = str(len(gpus))
    R['available'] = len(gpus) > 0
    for i, d in enumerate(gpus[:8]):
        R['device.%d.name' % i] = str(getattr(d, 'device_kind', d))
        cc = getattr(d, 'compute_capability', None)
        if cc:
            R['device.%d.cc' % i] = str(cc)
    if not gpus:
        return
    emit('compute')
    try:
        def mm():
            import numpy as np
            import jax.numpy as jnp
            a = np.random.randint(0, 4, (64, 64)).astype('float32')
            b = np.random.randint(0, 4, (64, 64)).astype('float32')
            x = jax.device_put(a, gpus[0])
            y = jax.device_put(b, gpus[0])
            got = np.asarray(jnp.dot(x, y) + 1)
            return bool((got == a @ b + 1).all())
        R['compute'] = 'ok' if captured(mm) else 'mismatch'
    except Exception as e:
        R['compute'] = 'error'
        R['compute_error'] = text(e)


def probe_cupy():
    cp = imported('cupy')
    if cp is None:
        return
    R['version'] = str(getattr(cp, '__version__', ''))
    pkg = dist_version('cupy-cuda13x', 'cupy-cuda12x', 'cupy-cuda11x', 'cupy')
    if pkg:
        R['package'] = '%s %s' % pkg
    rt = cp.cuda.runtime
    try:
        v = rt.runtimeGetVersion()
        R['cuda_build'] = '%d.%d' % (v // 1000, (v % 1000) // 10)
    except Exception as e:
        R['build_error'] = text(e)
    emit('cuda')
    try:
        n = captured(rt.getDeviceCount)
    except Exception as e:
        n = 0
        R['cuda_error'] = text(e)
    R['device_count'] = str(n)
    R['available'] = n > 0
    for i in range(min(n, 8)):
        try:
            p = rt.getDeviceProperties(i)
            name = p.get('name', b'')
            R['device.%d.name' % i] = name.decode('utf-8', 'replace') if isinstance(name, bytes) else str(name)
            R['device.%d.cc' % i] = '%d.%d' % (p.get('major', 0), p.get('minor', 0))
        except Exception as e:
            R['device.%d.error' % i] = text(e)
    if n <= 0:
        return
    emit('compute')
    try:
        def mm():
            import numpy as np
            a = np.random.randint(0, 4, (64, 64)).astype('float32')
            b = np.random.randint(0, 4, (64, 64)).astype('float32')
            got = cp.asnumpy(cp.asarray(a) @ cp.asarray(b) + 1)
            return bool((got == a @ b + 1).all())
        R['compute'] = 'ok' if captured(mm) else 'mismatch'
    except Exception as e:
        R['compute'] = 'error'
        R['compute_error'] = text(e)


PROBES = {'torch': probe_torch, 'tensorflow': probe_tensorflow, 'jax': probe_jax,
          'cupy': probe_cupy}
emit('start')
try:
    if FW in PROBES:
        origin_facts(FW)
        PROBES[FW]()
    else:
        R['probe_error'] = 'unknown framework %r' % FW
except Exception as e:
    R['probe_error'] = text(e)
if R.get('installed'):
    libcuda_facts()
emit('done')
if STUCK[0]:
    os._exit(0)
