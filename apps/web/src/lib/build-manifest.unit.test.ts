import { describe, expect, it } from 'vitest';
import { type BuildManifest, entryDependenciesInEvaluationOrder } from './build-manifest.ts';

describe('entryDependenciesInEvaluationOrder', () => {
  it('lists each chunk the entry imports after the chunks it imports, once, without the entry', () => {
    const manifest: BuildManifest = {
      'index.html': {
        file: 'assets/main.js',
        imports: ['_runtime.js', '_vendor.js', '_common.js'],
      },
      '_runtime.js': { file: 'assets/runtime.js' },
      '_vendor.js': { file: 'assets/vendor.js', imports: ['_runtime.js'] },
      '_common.js': { file: 'assets/common.js', imports: ['_vendor.js', '_icons.js'] },
      '_icons.js': { file: 'assets/icons.js', imports: ['_runtime.js'] },
      'src/page.tsx': { file: 'assets/page.js', imports: ['_common.js'] },
    };
    expect(entryDependenciesInEvaluationOrder(manifest)).toEqual([
      'assets/runtime.js',
      'assets/vendor.js',
      'assets/icons.js',
      'assets/common.js',
    ]);
  });

  it('fails on a chunk the manifest does not have', () => {
    const manifest: BuildManifest = {
      'index.html': { file: 'assets/main.js', imports: ['_x.js'] },
    };
    expect(() => entryDependenciesInEvaluationOrder(manifest)).toThrow('no _x.js');
  });
});
