# The SAM transform (AWS::Serverless-2016-10-31), run locally with the
# translator CloudFormation itself runs (samtranslator, which cfn-lint
# brings). Reads the template as JSON on stdin, writes the transformed
# CloudFormation template as JSON on stdout. Run by package deploy
# (transform.go); argv[1] is the region to translate for.
#
# As `sam deploy` does before CloudFormation sees it, each function's local
# CodeUri is replaced by the S3 location `sam package` uploads it to.
import json
import os
import sys

from samtranslator.parser.parser import Parser
from samtranslator.translator.translator import Translator


def main():
    region = sys.argv[1]
    os.environ["AWS_DEFAULT_REGION"] = region  # the translator's ARNs
    template = json.load(sys.stdin)
    for logical_id, resource in template.get("Resources", {}).items():
        props = resource.get("Properties")
        if resource.get("Type") == "AWS::Serverless::Function" and isinstance(props, dict):
            if isinstance(props.get("CodeUri"), str):
                props["CodeUri"] = "s3://sam-artifacts/" + logical_id
    # No managed policies are named in the template's Policies: the map of
    # their names stays empty, and a name in it would fail the transform.
    translator = Translator(managed_policy_map={}, sam_parser=Parser())
    out = translator.translate(sam_template=template, parameter_values={"AWS::Region": region})
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
