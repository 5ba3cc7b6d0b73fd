import { Module } from '@nestjs/common';
import { CallerResponder } from './callers/caller-responder';
import { CallersService } from './callers/callers.service';
import { RolesController } from './roles/roles.controller';
import { RolesService } from './roles/roles.service';
import { TenantsService } from './tenants/tenants.service';
import { UsersController } from './users/users.controller';
import { UsersService } from './users/users.service';

@Module({
  controllers: [UsersController, RolesController],
  providers: [CallersService, CallerResponder, TenantsService, RolesService, UsersService],
  exports: [TenantsService],
})
export class AuthModule {}
