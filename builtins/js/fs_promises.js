// `fs/promises`: the promise forms of the `fs` module.
import fs from 'fs';

const { promises } = fs;
export default promises;
export const {
  readFile, writeFile, appendFile, mkdir, readdir, stat, lstat, exists, rm, rmdir, unlink,
  rename, copyFile, cp, access, constants,
} = promises;
