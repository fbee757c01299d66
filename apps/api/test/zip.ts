// Reading a zip back with a zip library other than the one that wrote it (yazl writes the
// data export's; yauzl reads it here), for API and browser tests. Imports nothing of the app.
import yauzl from 'yauzl';

/** Every file of a zip, by name, read with yauzl (a reader independent of the writer). */
export function readZip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, zipFile) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      zipFile.on('error', reject);
      zipFile.on('end', () => resolve(files));
      zipFile.on('entry', (entry: yauzl.Entry) => {
        zipFile.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zipFile.readEntry();
          });
        });
      });
      zipFile.readEntry();
    });
  });
}
