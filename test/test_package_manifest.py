# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Release hygiene: package.xml declares what the code imports, a LICENSE file matches it,
the CLI reports its version and shows defaults."""

import ast
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from l3mp_ros import __version__
from l3mp_ros.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
# ROS packages imported by name; anything ending like an interface package counts too.
ROS_PACKAGES = {'rclpy', 'launch', 'launch_ros', 'ament_index_python', 'builtin_interfaces',
                'rcl_interfaces'}


def manifest() -> ET.Element:
    return ET.parse(ROOT / 'package.xml').getroot()


def imported_ros_packages() -> set[str]:
    out: set[str] = set()
    for path in (ROOT / 'l3mp_ros').rglob('*.py'):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.module
                     and node.level == 0 else [])
            for name in names:
                top = name.split('.')[0]
                if top in ROS_PACKAGES or top.endswith(('_msgs', '_srvs', '_interfaces')):
                    out.add(top)
    return out


def test_every_imported_ros_package_is_declared():
    root = manifest()
    declared = {e.text for tag in ('depend', 'exec_depend', 'build_depend')
                for e in root.iter(tag)}
    missing = imported_ros_packages() - declared
    assert not missing, f'package.xml lacks <exec_depend> for {sorted(missing)}'


def test_license_file_matches_package_xml_and_setup():
    root = manifest()
    assert root.findtext('license') == 'Apache-2.0'
    text = (ROOT / 'LICENSE').read_text()
    assert 'Apache License' in text and 'Version 2.0' in text
    assert root.findtext('version') == __version__


def test_cli_version_and_defaults_in_help(capsys):
    with pytest.raises(SystemExit) as done:
        main(['--version'])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f'l3mp {__version__}'
    sub = next(a for a in build_parser()._actions if a.dest == 'command')
    text = sub.choices['plan'].format_help()
    assert '(default: 30.0)' in text and 'default: portfolio' in text
