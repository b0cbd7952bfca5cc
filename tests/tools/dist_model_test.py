#!/usr/bin/env python3
"""tools/dist_model.py: fitted on the 2-GPU run in bench/results, it reproduces every row of that run
(the fit's own points, within 0.5%); --validate on a hand-made 4-GPU run passes where each row is the
prediction and fails (exit 1) where one row is 30% slower; a fit CSV that lacks a row it needs is an
error (exit 2) that names the row; the table names every GPU count up to 64."""
import csv
import glob
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
TOOL = os.path.join(ROOT, 'tools', 'dist_model.py')
sys.path.insert(0, os.path.join(ROOT, 'tools'))
import dist_model  # noqa: E402

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def run(*args):
    result = subprocess.run([sys.executable, TOOL] + list(args), capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


fit = sorted(glob.glob(os.path.join(ROOT, 'bench', 'results', 'h200x2_*_distributed*.csv')))[-1]
model = dist_model.Model(dist_model.read_rows(fit))
rows = dist_model.read_rows(fit)
for (operation, implementation, gpus, param), row in rows.items():
    predicted = model.times(gpus).get((operation, implementation, param))
    if predicted is None or (gpus == 1 and implementation == 'alltoall'):
        continue
    measured = float(row['median_ms'])
    check(abs(predicted - measured) <= 0.005 * measured,
          '{} {} on {}: predicted {:.3f}, measured {:.3f}'.format(operation, implementation, gpus, predicted, measured))

code, out = run('--csv', fit)
check(code == 0 and '64 GPUs' in out and 'all-to-all' in out, 'table: exit {}: {}'.format(code, out[:200]))

with tempfile.TemporaryDirectory() as tmp:
    header = ['operation', 'implementation', 'gpus', 'n', 'n_per_gpu', 'param', 'median_ms', 'ok']

    def write(path, entries):
        with open(path, 'w', newline='') as f:
            w = csv.writer(f)
            w.writerow(header)
            for operation, implementation, param, ms in entries:
                w.writerow([operation, implementation, 4, 4 * model.n_per_gpu, model.n_per_gpu, param, ms, 1])

    predicted4 = model.times(4)
    keys = [('scan', 'nccl', 'int32'), ('sort_keys', 'nccl', 'uniform')]
    good = os.path.join(tmp, 'good.csv')
    write(good, [(k[0], k[1], k[2], predicted4[k]) for k in keys])
    code, out = run('--csv', fit, '--validate', good)
    check(code == 0, 'validate, rows as predicted: exit {}: {}'.format(code, out))
    bad = os.path.join(tmp, 'bad.csv')
    write(bad, [(k[0], k[1], k[2], predicted4[k] * (1.3 if k[0] == 'sort_keys' else 1.0)) for k in keys])
    code, out = run('--csv', fit, '--validate', bad)
    check(code == 1 and 'past 15%' in out, 'validate, the sort 30% off: exit {}: {}'.format(code, out))
    partial = os.path.join(tmp, 'partial.csv')
    with open(fit) as src, open(partial, 'w') as dst:
        dst.writelines(line for line in src if not line.startswith('spmv_double,nccl,2,'))
    code, out = run('--csv', partial)
    check(code == 2 and 'spmv_double' in out, 'a fit without the 2-GPU SpMV row: exit {}: {}'.format(code, out))

if failures:
    print('dist_model_test: FAILED\n  ' + '\n  '.join(failures))
    sys.exit(1)
print('dist_model_test: every case as expected')
