// class-transformer ships its metadata storage without a declaration at this path; the type is the package's own.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
