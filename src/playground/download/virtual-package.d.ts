// Ambient declaration of the virtual module download/package-plugin.mjs provides (no imports here, so this
// declares a module rather than augments one).
declare module 'virtual:roundtrip-package' {
  /** A built copy of roundtrip/* as an npm package folder: paths inside the package -> contents. */
  const pkg: { version: string; files: Record<string, string> };
  export default pkg;
}
