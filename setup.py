"""Which packages an install of pbem carries: found, never listed by hand, so that a new module or
data folder cannot be left out of a wheel (as pbem.mail once was, unseen by editable installs).

Everything under pbem/ is a package, data folders included (namespace packages); the schemas/ and
templates/ folders live at the top of the repository, where people look for them, and install as
pbem.schemas and pbem.templates. Which files of a package are data is pyproject.toml's
package-data."""

from setuptools import find_namespace_packages, setup

TOP_LEVEL = {"pbem.schemas": "schemas", "pbem.templates": "templates"}
SKIPPED = ["*__pycache__*"]

packages = find_namespace_packages(include=["pbem", "pbem.*"], exclude=SKIPPED)
package_dir = {}
for package, folder in TOP_LEVEL.items():
    for inner in ["", *find_namespace_packages(where=folder, exclude=SKIPPED)]:
        name = f"{package}.{inner}" if inner else package
        packages.append(name)
        package_dir[name] = f"{folder}/{inner.replace('.', '/')}".rstrip("/")

setup(packages=sorted(packages), package_dir=package_dir)
