// `npm run setup:oasdiff`: make sure oasdiff (the OpenAPI breaking-change checker) is in .tools/, building it if needed.
import { findOrBuildOasdiff } from './oasdiff.js';

console.log(await findOrBuildOasdiff());
