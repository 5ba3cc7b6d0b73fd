import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ResponseMessage } from '@ddm/contracts';
import { PERMISSION_KEY_VIEWS, PermissionKeyView } from './dto/permission-key.response';

@ApiTags('Tenant roles')
@ApiAuth()
@Controller('v1/permission-keys')
export class PermissionKeysController {
  @Get()
  @ApiOperation({ summary: 'The catalogue of relationship keys a tenant role can grant' })
  @ApiOkResponse({ type: [PermissionKeyView] })
  @ResponseMessage('Permission keys fetched successfully')
  list(): readonly PermissionKeyView[] {
    return PERMISSION_KEY_VIEWS;
  }
}
