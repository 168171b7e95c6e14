# ------------------------------------------------------------------ command line

def expand(arg):
    """`@{NAME}` in an argument is the value of FL_NAME (a lone `@NAME` too): values reach fl
    through the environment, so no command line of the grader carries one."""
    def value(m):
        name = "FL_" + m.group(1)
        if name not in os.environ:
            raise Refused(f"internal: {name} is not set")
        return os.environ[name]
    if re.fullmatch(r"@([A-Z0-9_]+)", arg):
        return value(re.match(r"@([A-Z0-9_]+)", arg))
    return re.sub(r"@\{([A-Z0-9_]+)\}", value, arg)


def _json_argv(text):
    """An argument list as JSON, each element expanded like an argument."""
    return [expand(a) for a in json.loads(text)]


def run_judgement(main):
    """A check's judgement, main(), run: a refusal prints its one line and gives 1, and so does a
    file that is missing or cannot be read; 0 when it ends."""
    try:
        main()
    except Refused as e:
        print(e)
        return 1
    except FileNotFoundError as e:
        print((e.filename or "A file the check reads") + " does not exist on the system.")
        return 1
    except OSError as e:
        print(f"The grader could not read what it needs ({e.strerror}).")
        return 1
    return 0


def run_script(source):
    """`fl py SCRIPT`: a check's Python, run in one process with fl's functions as `fl` (each
    program start costs, on a busy host, more than the reading itself), judged as run_judgement
    does."""
    return run_judgement(lambda: exec(source, {"__name__": "__check__", "fl": sys.modules[__name__]}))


def main(args):
    if args[:1] == ["py"] and len(args) == 2:
        # The script as written: never expanded (values reach it through os.environ).
        return run_script(args[1])
    cmd, rest = (args[0], [expand(a) if not a.lstrip().startswith("[") else a for a in args[1:]]) if args else ("", [])
    out = sys.stdout.buffer
    if cmd == "gate":
        gate()
    elif cmd == "read":
        out.write(read_file(rest[0]))
    elif cmd == "exists":
        try:
            stat_path(rest[0], want_dir=False)
        except (FileNotFoundError, NotADirectoryError):
            return 1
    elif cmd == "sha256":
        # Every byte, whatever the size.
        fd, _ = resolve(rest[0])
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise Refused(f"{rest[0]} is not a regular file.")
            h = hashlib.sha256()
            for chunk in stream(fd):
                h.update(chunk)
        finally:
            os.close(fd)
        out.write((h.hexdigest() + "\n").encode())
    elif cmd == "contains":
        # contains VALUE PATH...: the regular files below each PATH (links not followed) that hold
        # VALUE anywhere, whatever their size (sparse files cost what they hold).
        needles = [rest[0].encode()]
        for top in rest[1:]:
            try:
                for path, fd in walk_files(top):
                    if contains(fd, needles):
                        out.write(f"{path}\n".encode())
            except FileNotFoundError:
                continue
    elif cmd == "ls":
        out.write("".join(n + "\n" for n in list_dir(rest[0])).encode())
    elif cmd == "stat":
        # stat PATH: type (file, dir, fifo, socket, other), octal mode with set-id bits, uid, gid,
        # size, and "acl" when the file has an access ACL beyond its mode bits.
        fd, _ = resolve(rest[0])
        try:
            st = os.fstat(fd)
            acl = " acl" if _acl_entries(_xattrs(fd)[0]) else ""
        finally:
            os.close(fd)
        kind = "dir" if stat.S_ISDIR(st.st_mode) else "file" if stat.S_ISREG(st.st_mode) else "fifo" if stat.S_ISFIFO(st.st_mode) else "socket" if stat.S_ISSOCK(st.st_mode) else "other"
        out.write(f"{kind} {stat.S_IMODE(st.st_mode):04o} {st.st_uid} {st.st_gid} {st.st_size}{acl}\n".encode())
    elif cmd == "access":
        # access USER PATH: what USER may do with PATH, as the kernel decides ("r", "w", "x",
        # ACLs and every directory on the way included); empty when nothing.
        out.write((access(rest[0], rest[1]) + "\n").encode())
    elif cmd == "ctime":
        out.write(f"{stat_path(rest[0]).st_ctime:.3f}\n".encode())
    elif cmd == "df":
        fd, _ = resolve(rest[0], want_dir=True)
        try:
            s = os.fstatvfs(fd)
        finally:
            os.close(fd)
        out.write(f"{s.f_bavail * s.f_frsize // 1024} {s.f_blocks * s.f_frsize // 1024}\n".encode())
    elif cmd == "listeners":
        for addr, port, inode in listeners(int(rest[0]) if rest else None):
            out.write(f"{addr} {port} {' '.join(map(str, socket_owners(inode)))}\n".encode())
    elif cmd == "ps":
        # ps: every process of the target, one JSON object a line: pid, ppid, uid, exe, argv.
        for pid in target_pids():
            try:
                row = {"pid": pid, "ppid": parent_of(pid), "uid": uid_of(pid), "argv": argv(pid)}
                try:
                    row["exe"] = exe(pid)
                except OSError:
                    row["exe"] = None
            except OSError:
                continue
            out.write((json.dumps(row) + "\n").encode())
    elif cmd == "pids":
        # pids EXE: target processes running EXE (verified or not; verify them with `process`).
        for pid in target_pids():
            try:
                if exe(pid) == rest[0]:
                    out.write(f"{pid}\n".encode())
            except OSError:
                continue
    elif cmd == "process":
        # process PID EXE [--argv JSON] [--config PATH]...
        pid, want = int(rest[0]), rest[1]
        want_argv, configs = _options(rest[2:])
        verify_process(pid, want, want_argv[0] if want_argv else None, configs)
    elif cmd == "service":
        # service PORT EXE --argv JSON [--argv JSON]... [--config PATH]...: prints the pids.
        port, want = int(rest[0]), rest[1]
        want_argv, configs = _options(rest[2:])
        for pid in verify_listener(port, want, want_argv, configs):
            out.write(f"{pid}\n".encode())
    elif cmd == "quiet-net":
        quiet_net(set(rest))
    elif cmd == "pristine":
        for path in rest:
            pristine(path)
    elif cmd == "normalized":
        # normalized --format F [--image] PATH: the file as its program reads it (see FORMATS);
        # --image: the image's original, which the grader has at the same path.
        image = "--image" in rest
        rest = [a for a in rest if a != "--image"]
        if len(rest) != 3 or rest[0] != "--format":
            raise Refused("internal: normalized --format FORMAT [--image] PATH")
        out.write((normalized(rest[2], rest[1], image) + "\n").encode())
    elif cmd == "tcp":
        # tcp HOST PORT [--send TEXT]: "closed" (refused), or "open" and the answer's first line.
        send = rest[3] if len(rest) > 3 and rest[2] == "--send" else None
        out.write((tcp(rest[0], int(rest[1]), send) + "\n").encode())
    elif cmd == "find-argv":
        # find-argv JSON: target processes whose arguments are exactly these. A fork of such a
        # process (a shell's $(...), before it execs) shows the same arguments for a moment: it
        # is left out, as a child of a match.
        want = _json_argv(args[1])
        found = {}
        for pid in target_pids():
            try:
                if argv(pid) == want:
                    found[pid] = parent_of(pid)
            except OSError:
                continue
        for pid, ppid in found.items():
            if ppid not in found:
                out.write(f"{pid}\n".encode())
    elif cmd == "user":
        pid = int(rest[0])
        if not is_target(pid):
            raise Refused(f"Process {pid} is not one of the deployment's processes.")
        out.write((user_name(uid_of(pid)) + "\n").encode())
    elif cmd == "started":
        pid = int(rest[0])
        if not is_target(pid):
            raise Refused(f"Process {pid} is not one of the deployment's processes.")
        out.write(f"{start_time(pid):.3f}\n".encode())
    else:
        raise Refused(f"internal: unknown grader command {cmd!r}")
    return 0


def _options(rest):
    argvs, configs = [], []
    it = iter(rest)
    for flag in it:
        value = next(it)
        if flag == "--argv":
            argvs.append(_json_argv(value))
        elif flag == "--config":
            configs.append(expand(value))
        else:
            raise Refused(f"internal: unknown option {flag}")
    return argvs, configs


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        # The reader had what it wanted (`fl ... | grep -q`): not a failure of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except Refused as e:
        print(e, file=sys.stdout)
        sys.exit(1)
    except FileNotFoundError as e:
        print(f"{e.filename or 'a file'} does not exist on the system." if e.filename else "A file the check reads does not exist.")
        sys.exit(3)
    except OSError as e:
        print(f"The grader could not read what it needs ({e.strerror}).")
        sys.exit(1)

