import type { BrowserContext } from 'playwright-core';

export declare const CHROMIUM_PATH: string;
export declare const CHROMIUM_FLAGS: string[];
export declare function launchChromium(options?: { executablePath?: string; viewport?: { width: number; height: number } }): Promise<{ context: BrowserContext; close(): Promise<void> }>;
