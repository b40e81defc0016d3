/** The part of SaxonJS 2 (npm saxon-js, no type declarations of its own) the tests use. */
declare module 'saxon-js' {
  interface TransformOptions {
    stylesheetInternal?: unknown;
    stylesheetFileName?: string;
    sourceText?: string;
    destination?: 'raw' | 'serialized' | 'document';
  }
  interface TransformResult {
    principalResult: unknown;
  }
  const SaxonJS: {
    transform(options: TransformOptions, mode: 'async'): Promise<TransformResult>;
    transform(options: TransformOptions, mode?: 'sync'): TransformResult;
    XPath: {
      evaluate(
        xpath: string,
        context: unknown,
        options?: { namespaceContext?: Record<string, string>; resultForm?: 'default' | 'array' | 'iterator' | 'xdm' },
      ): unknown;
    };
    getProcessorInfo(): { productVersion: string };
  };
  export default SaxonJS;
}
