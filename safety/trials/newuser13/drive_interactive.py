"""Drives `spmdfix fix --interactive` in a pty. Usage: drive_interactive.py ANSWERS -- ARGS...
ANSWERS is a string of y/n/a/q, one per prompt; prints the whole transcript."""
import os, pty, sys, time, select

answers, args = sys.argv[1], sys.argv[sys.argv.index("--") + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.executable, [sys.executable, "-m", "spmdfix.cli", "fix", "--interactive", *args])
out, i, buf = b"", 0, b""
while True:
    r, _, _ = select.select([fd], [], [], 20)
    if not r:
        sys.stdout.write("\n[driver: timeout, no output for 20 s]\n"); break
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk; buf += chunk
    if b"[q]uit" in buf or buf.rstrip().endswith(b"?"):
        ans = answers[i] if i < len(answers) else "q"
        i += 1
        time.sleep(0.1)
        os.write(fd, (ans + "\n").encode()); buf = b""
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
print(f"\n[driver: {i} prompts answered, exit {os.waitstatus_to_exitcode(status)}]")
