// The tarball ships README-npm.md as its README.md (npm takes the README from the package's root):
// the registry's short README, with absolute links, instead of the repository's, whose relative
// links break there. `prepack` runs `swap` after the build, `postpack` runs `restore`; `restore`
// does nothing when there is nothing to restore, and `swap` refuses when a swap is still pending,
// so a pack that failed in between leaves .README.repo.md, which `restore` puts back.
import { copyFileSync, existsSync, renameSync } from "node:fs";
import { fileURLToPath } from "node:url";

process.chdir(fileURLToPath(new URL("..", import.meta.url)));
const saved = ".README.repo.md";
if (process.argv[2] === "swap") {
  if (existsSync(saved)) {
    console.error(`pack-readme: ${saved} exists from an earlier pack: node scripts/pack-readme.mjs restore`);
    process.exit(1);
  }
  renameSync("README.md", saved);
  copyFileSync("README-npm.md", "README.md");
} else if (process.argv[2] === "restore") {
  if (existsSync(saved)) renameSync(saved, "README.md");
} else {
  console.error("usage: node scripts/pack-readme.mjs swap|restore");
  process.exit(1);
}
