import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { installDebianPackages } from '../../infra/debian-packages';

export const CHROMIUM = process.env.EVOLUTION_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Debian's chromium, installed with apt-get when missing (like the other local services
 * are installed on first use); playwright-core never downloads a browser.
 */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.getuid?.() !== 0)
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (sudo apt-get install -y chromium) or set EVOLUTION_CHROMIUM to a Chromium binary`);
  installDebianPackages(['chromium'], (line) => console.error(line));
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} does not exist`);
  return CHROMIUM;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(), args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}
