// The one zod the contracts are written in: zod/mini, whose schemas are plain functions a
// bundler can leave out when unused (a third of zod classic's size in the browser), with
// the English messages zod classic gives by default, so both sides say the same words.
import { z } from 'zod/mini';
import { en } from 'zod/v4/locales';

z.config(en());

export { z };
