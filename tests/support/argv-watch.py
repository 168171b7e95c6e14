# Watches every program the grader starts, as it starts (tests/support/argv-watch.ts): the
# kernel's process connector (netlink, root only) reports each exec, and for each one in the
# host's PID namespace whose environment names a deployment (FL_DEPLOYMENT: only graders carry it
# there; targets and copies have their own PID namespaces) this prints one JSON line:
# {"deployment": ..., "argv": [...]}. Decision 008: no command line of the grader may carry an
# expected answer or a fault's value. Runs until its standard input closes.
import json
import os
import select
import socket
import struct
import sys

NETLINK_CONNECTOR = 11
CN_IDX_PROC = 1
CN_VAL_PROC = 1
PROC_CN_MCAST_LISTEN = 1
PROC_EVENT_EXEC = 0x00000002
HOST_PIDNS = os.readlink("/proc/self/ns/pid")


def subscribe():
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_CONNECTOR)
    s.bind((os.getpid(), CN_IDX_PROC))
    op = struct.pack("=I", PROC_CN_MCAST_LISTEN)
    cn = struct.pack("=IIIIHH", CN_IDX_PROC, CN_VAL_PROC, 0, 0, len(op), 0) + op
    s.send(struct.pack("=IHHII", 16 + len(cn), 3, 0, 0, os.getpid()) + cn)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 * 1024 * 1024)
    return s


def report(pid):
    try:
        if os.readlink(f"/proc/{pid}/ns/pid") != HOST_PIDNS:
            return
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = f.read().split(b"\0")
        deployment = next((e[len(b"FL_DEPLOYMENT="):] for e in env if e.startswith(b"FL_DEPLOYMENT=")), None)
        if deployment is None:
            return
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = [a.decode("utf-8", "replace") for a in f.read().rstrip(b"\0").split(b"\0")]
    except OSError:
        return
    sys.stdout.write(json.dumps({"deployment": deployment.decode("utf-8", "replace"), "argv": argv}) + "\n")
    sys.stdout.flush()


def main():
    s = subscribe()
    sys.stdout.write(json.dumps({"ready": True}) + "\n")
    sys.stdout.flush()
    while True:
        ready, _, _ = select.select([s, sys.stdin], [], [])
        if sys.stdin in ready and not os.read(sys.stdin.fileno(), 4096):
            return
        if s not in ready:
            continue
        data = s.recv(65536)
        offset = 0
        while offset + 16 <= len(data):
            length = struct.unpack_from("=I", data, offset)[0]
            if length < 16:
                break
            msg = data[offset + 16: offset + length]
            # cn_msg header (20 bytes), then proc_event: what(4) cpu(4) timestamp(8) then the event.
            if len(msg) >= 20 + 16 + 8:
                what = struct.unpack_from("=I", msg, 20)[0]
                if what == PROC_EVENT_EXEC:
                    pid = struct.unpack_from("=I", msg, 36)[0]
                    report(pid)
            offset += (length + 3) & ~3


if __name__ == "__main__":
    main()
