"""A program whose daemon threads are running device work when its main thread exits ends the way
the same program with NumPy does: exit status 0, nothing printed but its own output, no hang.
Before, such a program crashed (SIGSEGV, SIGABRT) or hung in 29 of 30 runs."""

import subprocess
import sys
import textwrap

import pytest

import switchyard as sy

# Threads that keep running work on their device, compiling a kernel never seen before on every
# pass, while the main thread sleeps and then returns.
PROGRAM = textwrap.dedent(
    """
    import sys, threading, time
    import numpy as np
    import switchyard as sy

    def fresh(x, k):
        # The bits of k choose the operators: a kernel of its own for each k.
        y = x
        for bit in range(8):
            y = sy.sin(y) if (k >> bit) & 1 else y * 1.5 + 0.25
        return y

    def work(seed, device):
        x = sy.asarray(np.random.default_rng(seed).random(1 << 14, dtype=np.float32))
        k = seed * 64
        while True:
            k += 1
            with sy.device(device):
                float(sy.sum(sy.sin(x) * 2))
                float(sy.sum(fresh(x, k)))

    for seed, device in enumerate(sys.argv[1].split(",")):
        threading.Thread(target=work, args=(seed, device), daemon=True).start()
    time.sleep(float(sys.argv[2]))
    print("main returns", flush=True)
    """
)

# Four threads: on the OpenCL device where there is one (compiles are slow there, and its
# driver's statics are the ones exit destroys), with one on the host.
IDS = [d.id for d in sy.devices()]
DEVICE = "opencl:0" if "opencl:0" in IDS else IDS[0]
THREAD_DEVICES = ",".join([DEVICE, DEVICE, DEVICE, IDS[-1]])

# The main thread returns at different points of the threads' work: while the first kernels
# compile, and later in the loop.
SLEEPS_S = [0.05, 0.2, 0.4, 0.6, 0.8, 1.0]


@pytest.mark.parametrize("sleep_s", SLEEPS_S)
def test_exit_while_daemon_threads_run_device_work(sleep_s):
    try:
        run = subprocess.run(
            [sys.executable, "-c", PROGRAM, THREAD_DEVICES, str(sleep_s)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the program hung at exit: {e.stderr}")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "main returns\n"
    assert run.stderr == ""


# A child of fork() copies the parent's threads' state mid-flight (locks held, calls in flight,
# background work) without the threads: its exit must not wait for any of it.
FORKING_PROGRAM = textwrap.dedent(
    """
    import os, sys, threading, time
    import numpy as np
    import switchyard as sy

    def work(seed):
        x = sy.asarray(np.random.default_rng(seed).random(1 << 16, dtype=np.float32))
        while True:
            with sy.device("cpu:0"):
                float(sy.sum(sy.sin(x) * 2))

    for seed in range(3):
        threading.Thread(target=work, args=(seed,), daemon=True).start()
    time.sleep(0.3)
    statuses = []
    for _ in range(10):
        pid = os.fork()
        if pid == 0:
            sys.exit(0)
        statuses.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
    print(statuses, flush=True)
    """
)


def test_forked_children_exit_while_the_parents_threads_run_device_work():
    try:
        run = subprocess.run(
            # Python 3.12 and later warn of fork() in a threaded process: that is the point here.
            [sys.executable, "-W", "ignore::DeprecationWarning", "-c", FORKING_PROGRAM],
            capture_output=True,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"a forked child hung at exit: {e.stderr}")
    assert run.returncode == 0, run.stderr
    assert run.stdout == str([0] * 10) + "\n"
    assert run.stderr == ""
