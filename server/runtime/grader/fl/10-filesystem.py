# ------------------------------------------------------------------ the target's filesystem

def _root_fd():
    try:
        return os.open(TARGET_ROOT, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as e:
        raise Refused(f"The grader cannot see the deployment's files ({e.strerror}).")


def resolve(path, want_dir=False):
    """Opens `path` as the target sees it; returns (fd, canonical path). Raises FileNotFoundError."""
    if not path.startswith("/"):
        raise Refused(f"internal: {path} is not absolute")
    root = _root_fd()
    stack = []  # canonical components so far
    todo = [c for c in path.split("/") if c]
    links = 0
    fd = os.dup(root)
    try:
        while todo:
            name = todo.pop(0)
            if name == ".":
                continue
            if name == "..":
                if stack:
                    stack.pop()
                os.close(fd)
                fd = _walk(root, stack)
                continue
            last = not todo
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                links += 1
                if links > 40:
                    raise OSError(errno.ELOOP, "too many symbolic links", path)
                target = os.readlink(name, dir_fd=fd)
                todo = [c for c in target.split("/") if c] + todo
                if target.startswith("/"):
                    stack = []
                    os.close(fd)
                    fd = os.dup(root)
                continue
            if last and not want_dir and not stat.S_ISDIR(st.st_mode):
                nfd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
            else:
                nfd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nfd
            stack.append(name)
        return fd, "/" + "/".join(stack)
    except FileNotFoundError:
        os.close(fd)
        raise FileNotFoundError(errno.ENOENT, "not found", path)
    except BaseException:
        os.close(fd)
        raise
    finally:
        os.close(root)


def _walk(root, stack):
    fd = os.dup(root)
    for name in stack:
        nfd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nfd
    return fd


def read_file(path):
    fd, _ = resolve(path)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"{path} is not a regular file.")
        chunks, size = [], 0
        while size <= MAX_READ:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_READ:
            raise Refused(f"{path} is larger than the grader reads ({MAX_READ // 1048576} MiB).")
        return b"".join(chunks)
    finally:
        os.close(fd)


def stat_path(path, want_dir=False):
    fd, _ = resolve(path, want_dir)
    try:
        return os.fstat(fd)
    finally:
        os.close(fd)


def list_dir(path):
    fd, _ = resolve(path, want_dir=True)
    try:
        return sorted(os.listdir(fd))
    finally:
        os.close(fd)


def root_device():
    return os.stat(TARGET_ROOT + "/").st_dev


