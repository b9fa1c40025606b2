# Regenerates the tqdm fixtures with the real tqdm (Debian python3-tqdm) and a fake clock:
#   /usr/bin/python3 make-fixtures.py
# The tests only read the .log files written here; they never run Python.
import io
import tqdm.std
from tqdm import tqdm as bar

class Clock:
    now = 1000.0
    def __call__(self):
        return Clock.now
tqdm.std.time = Clock()

def tick(seconds):
    Clock.now += seconds

def opts(out, **kw):
    return dict(file=out, mininterval=0, miniters=1, ncols=80, ascii=False, **kw)

def write(name, text):
    with open(name, "w", encoding="utf-8", newline="") as f:
        f.write(text)

def train_eval():
    out = io.StringIO()
    train = bar(total=1000, **opts(out))
    for step in range(1, 301):
        tick(0.2)
        train.update(1)
        if step % 100 == 0:
            out.write("\n{'loss': 0.%d, 'learning_rate': 5e-05, 'epoch': %.2f}\n" % (9 - step // 100, step / 1000))
            ev = bar(total=50, desc="Evaluating", leave=False, **opts(out, position=1))
            for _ in range(50):
                tick(0.05)
                ev.update(1)
            ev.close()
    write("train-eval.log", out.getvalue())

def unit_scale():
    out = io.StringIO()
    b = bar(total=3_400_000, unit="B", unit_scale=True, desc="download", **opts(out))
    for _ in range(12):
        tick(0.5)
        b.update(150_000)
    write("unit-scale.log", out.getvalue())

def unit_scale_it():
    # counts and rates of plain iterations with a prefix: 1.20k/3.40k, 1.00kit/s
    out = io.StringIO()
    b = bar(total=3_400, unit_scale=True, desc="tokens", **opts(out))
    for _ in range(12):
        tick(0.1)
        b.update(100)
    write("unit-scale-it.log", out.getvalue())

def slow_steps():
    out = io.StringIO()
    b = bar(total=40, desc="Epoch 3", **opts(out))
    for _ in range(7):
        tick(2.5)
        b.update(1)
    write("slow-steps.log", out.getvalue())

def no_total():
    out = io.StringIO()
    b = bar(desc="batches", **opts(out))
    for _ in range(25):
        tick(0.1)
        b.update(1)
    write("no-total.log", out.getvalue())

def ddp():
    ranks = [io.StringIO(), io.StringIO()]
    bars = [bar(total=500, desc="train", **opts(r)) for r in ranks]
    out = io.StringIO()
    for step in range(60):
        for rank in (0, 1):
            start = len(ranks[rank].getvalue())
            tick(0.1)
            bars[rank].update(1)
            out.write(ranks[rank].getvalue()[start:])
    write("ddp.log", out.getvalue())

def ddp_four_ranks():
    # four ranks write to one log; rank 3 lags a step behind the others
    ranks = [io.StringIO() for _ in range(4)]
    bars = [bar(total=800, desc="train", **opts(r)) for r in ranks]
    out = io.StringIO()
    for step in range(40):
        for rank in range(4):
            if rank == 3 and step == 39:
                continue
            start = len(ranks[rank].getvalue())
            tick(0.05)
            bars[rank].update(1)
            out.write(ranks[rank].getvalue()[start:])
    write("ddp-4.log", out.getvalue())

train_eval()
unit_scale()
unit_scale_it()
ddp_four_ranks()
slow_steps()
no_total()
ddp()
