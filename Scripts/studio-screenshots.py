#!/usr/bin/env python3
"""Screenshots of `livery studio` for docs/Tooling.md, taken in headless Chromium through
chromedriver (WebDriver over HTTP on loopback, Scripts/webdriver.py), on a copy of the sample
themes:

    Scripts/studio-screenshots.py [OUT_DIR]     (default docs/images/studio)

Builds nothing: run `swift build --product livery` first."""
import os, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webdriver import Browser

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "docs/images/studio"))
os.makedirs(out, exist_ok=True)
work = tempfile.mkdtemp(prefix="livery-studio-shots-")
shutil.copytree(os.path.join(root, "Themes"), os.path.join(work, "Themes"))
studio = subprocess.Popen([os.path.join(root, ".build/debug/livery"), "studio", "Themes", "--port", "0"], cwd=work,
                          stdout=subprocess.PIPE, text=True)
url = studio.stdout.readline().split(" ", 2)[2].strip()

try:
    with Browser(window="1400,1250") as browser:
        def shot(name):
            time.sleep(0.6)
            browser.screenshot(os.path.join(out, name))
            print("wrote", os.path.join(out, name))
        browser.open(url)
        browser.find('[data-id="button_send"]')
        shot("screen.png")
        browser.click('[data-id="button_send"]')
        browser.click('button[data-edit="backgroundColor|normal"]')
        browser.type("#edit-text", "#E8F0FF")
        shot("edit-colour.png")
        browser.click("#edit-write")
        time.sleep(1)
        shot("contrast-finding.png")
        browser.click("#undo")
        time.sleep(0.5)
        browser.script("var c=document.getElementById('compare');c.value='traits:dark';c.dispatchEvent(new Event('change'));"
                       "document.getElementById('scale').value='2';document.getElementById('scale').dispatchEvent(new Event('change'));")
        shot("compare-dark-2x.png")
        # A derived colour: accentStrong made brand darkened 0.2, beside another colour from brand.
        constants = os.path.join(work, "Themes/Base.theme/Constants.xml")
        text = open(constants, encoding="utf-8").read()
        plain = '<color name="accentStrong">#0062CC</color>'
        assert plain in text, "Constants.xml no longer writes accentStrong as #0062CC: update this script"
        text = text.replace(plain, '<color name="accentStrong" ref="brand" darken="0.2"/>\n'
                            '    <color name="brandTint" ref="brand" lighten="0.8"/>')
        open(constants, "w", encoding="utf-8").write(text)
        time.sleep(1)
        browser.open(url)
        browser.click('[data-id="button_send"]')
        browser.click('button[data-edit="backgroundColor|normal"]')
        browser.find("#edit-follows")
        shot("derived-colour.png")
finally:
    studio.terminate()
    shutil.rmtree(work, ignore_errors=True)
