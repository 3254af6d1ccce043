"""The kernel's seal: once its channels are open, a graded kernel opens no socket of any kind
(issue 51: cgroup v1 does not count what a Unix socket queues, so a submission that could make
socket pairs could hold memory past the sandbox's bound)."""

from __future__ import annotations

import platform
import struct
import sys

import nbformat
import pytest

from instructor.grading import runner, sandbox

SEALABLE = sys.platform == "linux" and platform.machine() in runner.SEAL_CALLS


def test_the_seal_and_the_sandbox_name_the_same_socket_call_and_architecture():
    for machine, (arch, numbers) in runner.SEAL_CALLS.items():
        sandbox_arch, sandbox_numbers = sandbox.SYSCALLS[machine]
        assert arch == sandbox_arch
        assert numbers["socket"] == sandbox_numbers["socket"]


@pytest.mark.parametrize("machine", sorted(runner.SEAL_CALLS))
def test_the_seal_refuses_socket_and_socketpair_and_allows_the_rest(machine):
    """The filter read as the kernel reads it: a small interpreter of the five instructions
    it uses, run on each call number of interest."""
    arch, numbers = runner.SEAL_CALLS[machine]
    code = runner.seal_program(machine)
    program = [struct.unpack("=HBBI", code[i : i + 8]) for i in range(0, len(code), 8)]

    def verdict(nr, audit_arch=arch):
        data = {0: nr, 4: audit_arch}
        pc, acc = 0, None
        while True:
            op, jt, jf, k = program[pc]
            if op == 0x20:
                acc = data[k]
            elif op == 0x15:
                pc += jt if acc == k else jf
            elif op == 0x06:
                return k
            pc += 1

    refused, allowed = 0x00050001, 0x7FFF0000
    assert verdict(numbers["socket"]) == refused
    assert verdict(numbers["socketpair"]) == refused
    for other in (0, 1, numbers["seccomp"], numbers["socket"] + 1000):
        assert verdict(other) == allowed
    # another architecture's calls are the sandbox's own filter's to kill
    assert verdict(numbers["socket"], audit_arch=0x40000003) == allowed


def test_no_seal_for_a_machine_it_is_not_written_for():
    assert runner.seal_program("riscv64") is None
    assert runner.kernel_argv(True, "riscv64")[1:3] == ["-m", "ipykernel_launcher"]
    assert runner.kernel_argv(False)[1:3] == ["-m", "ipykernel_launcher"]


@pytest.mark.skipif(not SEALABLE, reason="the seal is written for Linux on x86-64 and arm64")
def test_a_sealed_kernel_runs_cells_and_opens_no_socket_nor_do_its_children(monkeypatch):
    from nbclient import NotebookClient

    monkeypatch.setenv("JUPYTER_PATH", runner._kernelspec_dir(True))
    tries = (
        "import socket, subprocess, sys\n"
        "made = {}\n"
        "for name, make in [('unix', lambda: socket.socket(socket.AF_UNIX)),\n"
        "        ('unix pair', socket.socketpair), ('tcp', socket.socket)]:\n"
        "    try:\n        make(); made[name] = True\n"
        "    except PermissionError:\n        made[name] = False\n"
        "child = subprocess.run([sys.executable, '-c', 'import socket; socket.socketpair()'])\n"
        "made['a child'] = child.returncode == 0\n"
        "print(sorted(made.items()))"
    )
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(tries), nbformat.v4.new_code_cell("print(6 * 7)")]
    )
    client = NotebookClient(nb, kernel_name="python3", timeout=120, config=runner._ipc_config())
    client.execute()
    said = [output["text"] for cell in nb.cells for output in cell.outputs]
    expected = [("a child", False), ("tcp", False), ("unix", False), ("unix pair", False)]
    assert said == [f"{expected}\n", "42\n"]
